// comp_include_jail.cpp — what a build may read from disk.
//
// In every mode (compIncludeFiles) an include opens only a regular file, of at most
// HSACL_BUILD_MAX_SOURCE bytes: `#include "/dev/zero"` would read forever and a FIFO would
// block the build until a writer came. The path is checked with stat (a device is never
// opened), opened with O_NONBLOCK (opening a FIFO does not wait) and checked again on the
// descriptor with fstat, so a path swapped after the first check cannot get past it; the
// descriptor is the one read.
//
// Restricted includes (HSACL_BUILD_INCLUDES=restricted, compIncludeRoots and compIncludeJail):
// a build may read only its own -I folders, the embedded headers and clang's resource folder
// (opencl-c-base.h), and its -I folders must lie under a folder the service names in
// HSACL_BUILD_INCLUDE_DIRS (colon-separated absolute paths; unset or empty: none). Folders
// and files are compared after realpath, so `..`, symlinks and /proc/self/root lead nowhere
// else. `#include "/etc/passwd"`, `"../../x"` or `-I /etc` are refused, so a build service
// (a PoCL-R-style server, a remote client's kernels) never quotes a file of the server into
// a build log.

#include "comp_include_jail.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// True when `path` is `root` or lies below it (both canonical, no trailing '/').
bool
under(llvm::StringRef path, llvm::StringRef root)
{
   if (root == "/")
      return path.starts_with("/");
   return path == root ||
          (path.starts_with(root) && path.size() > root.size() && path[root.size()] == '/');
}

// `p` absolute (against the process's working folder), `.` and `..` removed, symlinks
// resolved when it exists, without a trailing '/'.
std::string
canonicalFolder(llvm::StringRef p)
{
   llvm::SmallString<256> path(p), real;
   llvm::sys::fs::make_absolute(path);
   llvm::sys::path::remove_dots(path, true);
   if (!llvm::sys::fs::real_path(path, real))
      path = real;
   while (path.size() > 1 && path.back() == '/')
      path.pop_back();
   return std::string(path.str());
}

// A file compIncludeFiles opened and checked: reads go to its descriptor.
class CheckedFile : public llvm::vfs::File {
 public:
   CheckedFile(int fd, llvm::vfs::Status st) : fd_(fd), st_(std::move(st)) {}
   ~CheckedFile() override { close(); }

   llvm::ErrorOr<llvm::vfs::Status> status() override { return st_; }

   // Read, never mapped (IsVolatile): a file truncated after the fstat reads as zeros
   // instead of raising SIGBUS; never more than the size that was checked.
   llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
   getBuffer(const llvm::Twine &name, int64_t, bool requiresNullTerminator, bool) override
   {
      if (fd_ < 0)
         return std::make_error_code(std::errc::bad_file_descriptor);
      return llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(fd_), name,
                                             st_.getSize(), requiresNullTerminator,
                                             /*IsVolatile=*/true);
   }

   std::error_code close() override
   {
      if (fd_ >= 0)
         ::close(fd_);
      fd_ = -1;
      return {};
   }

 private:
   int fd_;
   llvm::vfs::Status st_;
};

class IncludeFiles : public llvm::vfs::ProxyFileSystem {
 public:
   IncludeFiles(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base, uint64_t maxBytes,
                std::vector<std::string> exempt, llvm::raw_ostream &log)
      : ProxyFileSystem(std::move(base)), maxBytes_(maxBytes), exempt_(std::move(exempt)),
        log_(log)
   {
   }

   llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
   openFileForRead(const llvm::Twine &p) override
   {
      llvm::SmallString<256> path;
      p.toVector(path);
      llvm::SmallString<256> abs(path);
      if (std::error_code ec = makeAbsolute(abs))
         return ec;
      // stat first, so that a device is never opened (opening one can act: a watchdog, a
      // tape); then the descriptor's own fstat, for a path swapped in between.
      struct stat st;
      if (::stat(abs.c_str(), &st) != 0)
         return std::error_code(errno, std::generic_category());
      std::error_code ec = check(path, abs, st);
      if (ec)
         return ec;
      int fd = ::open(abs.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
      if (fd < 0)
         return std::error_code(errno, std::generic_category());
      llvm::sys::fs::file_status fs;
      if (fstat(fd, &st) != 0)
         ec = std::error_code(errno, std::generic_category());
      if (!ec)
         ec = check(path, abs, st);
      if (!ec)
         ec = llvm::sys::fs::status(fd, fs);
      if (ec) {
         ::close(fd);
         return ec;
      }
      return std::unique_ptr<llvm::vfs::File>(
         new CheckedFile(fd, llvm::vfs::Status::copyWithNewName(fs, path)));
   }

 private:
   std::error_code check(llvm::StringRef path, llvm::StringRef abs, const struct stat &st)
   {
      if (S_ISDIR(st.st_mode))
         return std::make_error_code(std::errc::is_a_directory); // as clang's own lookup
      if (!S_ISREG(st.st_mode)) {
         report(path, "is not a regular file (a FIFO, socket or device): refused");
         return std::make_error_code(std::errc::invalid_argument);
      }
      if (static_cast<uint64_t>(st.st_size) > maxBytes_ && !isExempt(abs)) {
         report(path, "is " + std::to_string(st.st_size) + " bytes, more than the " +
                         std::to_string(maxBytes_) +
                         " an included file may have (HSACL_BUILD_MAX_SOURCE)");
         return std::make_error_code(std::errc::file_too_large);
      }
      return {};
   }

   bool isExempt(llvm::StringRef abs) const
   {
      for (const std::string &r : exempt_)
         if (under(abs, r))
            return true;
      return false;
   }

   // One line per path: clang may look a file up more than once.
   void report(llvm::StringRef path, const std::string &what)
   {
      if (reported_.insert(path.str()).second)
         log_ << "error: include '" << path << "' " << what << "\n";
   }

   uint64_t maxBytes_;
   std::vector<std::string> exempt_;
   llvm::raw_ostream &log_;
   std::set<std::string> reported_;
};

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
   for (const std::string &r : roots)
      canonical.push_back(canonicalFolder(r));
   return llvm::makeIntrusiveRefCnt<IncludeJail>(std::move(base), std::move(canonical),
                                                 virtualRoot);
}

bool
compIncludeRoots(const std::vector<std::string> &dirs, std::vector<std::string> &roots,
                 llvm::raw_ostream &log)
{
   std::vector<std::string> allowed;
   const char *env = getenv("HSACL_BUILD_INCLUDE_DIRS");
   llvm::SmallVector<llvm::StringRef, 8> entries;
   llvm::StringRef(env ? env : "").split(entries, ':', -1, /*KeepEmpty=*/false);
   for (llvm::StringRef e : entries)
      if (llvm::sys::path::is_absolute(e))
         allowed.push_back(canonicalFolder(e)); // relative entries mean nothing to a service
   bool ok = true;
   for (const std::string &d : dirs) {
      std::string c = canonicalFolder(d);
      bool in = false;
      for (const std::string &a : allowed)
         in |= under(c, a);
      if (!in) {
         // The folder as the program gave it: the log names nothing of the service's own.
         log << "error: -I " << d << ": restricted includes (HSACL_BUILD_INCLUDES) allow only "
             << "folders under HSACL_BUILD_INCLUDE_DIRS; refused\n";
         ok = false;
         continue;
      }
      roots.push_back(c);
   }
   return ok;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeFiles(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base, uint64_t maxBytes,
                 const std::vector<std::string> &exemptRoots, llvm::raw_ostream &log)
{
   std::vector<std::string> exempt;
   for (const std::string &r : exemptRoots)
      exempt.push_back(canonicalFolder(r));
   return llvm::makeIntrusiveRefCnt<IncludeFiles>(std::move(base), maxBytes, std::move(exempt),
                                                  log);
}
