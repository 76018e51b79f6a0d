// comp_include_jail.h — the restricted-include file system of a build (C++, compiler/ only).
#ifndef COMP_INCLUDE_JAIL_H
#define COMP_INCLUDE_JAIL_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

// A view of `base` in which only files under `roots` (folders; symlinks resolved, `..`
// removed) exist; everything else reads as "no such file", without a byte of it reaching
// the build log. `virtualRoot` (in-memory headers) is allowed as it is.
// Restricted includes (HSACL_BUILD_INCLUDES=restricted) only.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeJail(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                const std::vector<std::string> &roots, const std::string &virtualRoot);

// The -I folders `dirs` of a restricted build as jail roots (canonical, appended to
// `roots`): each must lie, after realpath, under a folder of HSACL_BUILD_INCLUDE_DIRS
// (colon-separated absolute paths; unset or empty allows none). False, with one "error:"
// line in `log` per folder refused (naming the folder as given, nothing of the allow-list).
bool
compIncludeRoots(const std::vector<std::string> &dirs, std::vector<std::string> &roots,
                 llvm::raw_ostream &log);

// A view of `base` in which a file opens only if it is a regular file of at most `maxBytes`
// bytes (files under `exemptRoots`, clang's resource folder, have no bound): checked with
// stat (a device is never opened), opened with O_NONBLOCK and checked again with fstat on
// that descriptor, which is then the one read. A FIFO, socket or device, or a file past the
// bound, fails to open with one "error:" line in `log` per path; a directory fails silently,
// as in clang's own lookup. Every mode. `log` must outlive the view's use.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeFiles(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base, uint64_t maxBytes,
                 const std::vector<std::string> &exemptRoots, llvm::raw_ostream &log);

// A view of `base` that sets *readsFiles when the build opens a file outside `ignoreRoots`
// (clang's resource folder) and `virtualRoot`: a header from disk, which the kernel cache's
// key does not cover, so such a build must not be cached. *readsFiles must outlive the view.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeRecorder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                    const std::vector<std::string> &ignoreRoots, const std::string &virtualRoot,
                    bool *readsFiles);

#endif
