// comp_include_jail.h — the restricted-include file system of a build (C++, compiler/ only).
#ifndef COMP_INCLUDE_JAIL_H
#define COMP_INCLUDE_JAIL_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

// A view of `base` in which only files under `roots` (folders; symlinks resolved, `..`
// removed) exist; everything else reads as "no such file", without a byte of it reaching
// the build log. `virtualRoot` (in-memory headers) is allowed as it is.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeJail(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                const std::vector<std::string> &roots, const std::string &virtualRoot);

// A view of `base` that sets *readsFiles when the build opens a file outside `ignoreRoots`
// (clang's resource folder) and `virtualRoot`: a header from disk, which the kernel cache's
// key does not cover, so such a build must not be cached. *readsFiles must outlive the view.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
compIncludeRecorder(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                    const std::vector<std::string> &ignoreRoots, const std::string &virtualRoot,
                    bool *readsFiles);

#endif
