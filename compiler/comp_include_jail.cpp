// comp_include_jail.cpp — restricted includes (HSACL_BUILD_INCLUDES=restricted): a build
// may read only the program's own -I folders, the embedded headers and clang's resource
// folder (opencl-c-base.h). `#include "/etc/passwd"` or `"../../x"` is "file not found", so
// a build service (a PoCL-R-style server, a remote client's kernels) never quotes a file of
// the server into a build log.

#include "comp_include_jail.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace {

class IncludeJail : public llvm::vfs::ProxyFileSystem {
 public:
   IncludeJail(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
               std::vector<std::string> roots, std::string virtualRoot)
      : ProxyFileSystem(std::move(base)), roots_(std::move(roots)),
        virtualRoot_(std::move(virtualRoot))
   {
   }

   llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override
   {
      if (!allowed(path))
         return std::make_error_code(std::errc::no_such_file_or_directory);
      return ProxyFileSystem::status(path);
   }

   llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
   openFileForRead(const llvm::Twine &path) override
   {
      if (!allowed(path))
         return std::make_error_code(std::errc::no_such_file_or_directory);
      return ProxyFileSystem::openFileForRead(path);
   }

   llvm::vfs::directory_iterator dir_begin(const llvm::Twine &dir, std::error_code &ec) override
   {
      if (!allowed(dir)) {
         ec = std::make_error_code(std::errc::no_such_file_or_directory);
         return {};
      }
      return ProxyFileSystem::dir_begin(dir, ec);
   }

 private:
   static bool under(llvm::StringRef path, llvm::StringRef root)
   {
      return path == root ||
             (path.starts_with(root) && path.size() > root.size() && path[root.size()] == '/');
   }

   bool allowed(const llvm::Twine &p)
   {
      llvm::SmallString<256> path;
      p.toVector(path);
      if (llvm::sys::path::is_relative(path) && makeAbsolute(path))
         return false;
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      if (under(path, virtualRoot_))
         return true;
      // Symlinks inside a root that lead out of it are outside.
      llvm::SmallString<256> real;
      if (!llvm::sys::fs::real_path(path, real))
         path = real;
      for (const std::string &r : roots_)
         if (under(path, r))
            return true;
      return false;
   }

   std::vector<std::string> roots_;
   std::string virtualRoot_;
};

class IncludeRecorder : public llvm::vfs::ProxyFileSystem {
 public:
   IncludeRecorder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                   std::vector<std::string> ignore, bool *readsFiles)
      : ProxyFileSystem(std::move(base)), ignore_(std::move(ignore)), readsFiles_(readsFiles)
   {
   }

   llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
   openFileForRead(const llvm::Twine &path) override
   {
      auto f = ProxyFileSystem::openFileForRead(path);
      if (f && !*readsFiles_) {
         llvm::SmallString<256> p;
         path.toVector(p);
         bool ignored = false;
         for (const std::string &r : ignore_)
            ignored |= p.str().starts_with(r);
         if (!ignored)
            *readsFiles_ = true;
      }
      return f;
   }

 private:
   std::vector<std::string> ignore_;
   bool *readsFiles_;
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeRecorder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                    const std::vector<std::string> &ignoreRoots, const std::string &virtualRoot,
                    bool *readsFiles)
{
   std::vector<std::string> ignore = ignoreRoots;
   ignore.push_back(virtualRoot);
   return llvm::makeIntrusiveRefCnt<IncludeRecorder>(std::move(base), std::move(ignore),
                                                     readsFiles);
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeJail(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                const std::vector<std::string> &roots, const std::string &virtualRoot)
{
   std::vector<std::string> canonical;
   for (const std::string &r : roots) {
      llvm::SmallString<256> path(r), real;
      llvm::sys::fs::make_absolute(path);
      llvm::sys::path::remove_dots(path, true);
      if (!llvm::sys::fs::real_path(path, real))
         path = real;
      while (path.size() > 1 && path.back() == '/')
         path.pop_back();
      canonical.emplace_back(path.str());
   }
   return llvm::makeIntrusiveRefCnt<IncludeJail>(std::move(base), std::move(canonical),
                                                 virtualRoot);
}
