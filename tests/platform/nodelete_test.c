/*
 * The shared libraries that register thread-exit destructors (pthread keys of the launch
 * path's per-thread lists, the interpreter's per-thread state, the KFD's event ages) must
 * stay mapped once loaded: a loader that dlcloses one while other threads live would leave
 * those threads a destructor in unmapped code. Each library is linked -z nodelete; this
 * checks it is still resident after its only dlopen reference is closed.
 *
 * nodelete_test LIBRARY...
 */
#include <dlfcn.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
   int failures = 0;
   for (int i = 1; i < argc; i++) {
      void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
      if (!h) {
         fprintf(stderr, "FAIL %s: dlopen: %s\n", argv[i], dlerror());
         failures++;
         continue;
      }
      dlclose(h);
      void *again = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
      if (!again) {
         fprintf(stderr, "FAIL %s: unmapped by dlclose (not linked -z nodelete)\n", argv[i]);
         failures++;
         continue;
      }
      dlclose(again);
      printf("ok %s stays loaded\n", argv[i]);
   }
   return failures ? 1 : 0;
}
