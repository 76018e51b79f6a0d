/*
 * sim/tests/sim_test_loader.c — code object readers, executables and symbols.
 * argv[1]: k.hsaco (clang-19 build of k.cl), argv[2]: trap.hsaco (llvm-mc).
 *
 * Expected values come from `llvm-readelf-19 --notes -r --dyn-syms k.hsaco`:
 *   scale: .kernarg_segment_size 24 (two pointers, a float, a uint), .kernarg_segment_align 8,
 *          .group_segment_fixed_size 1024 (local float[256]), .private_segment_fixed_size 0,
 *          .uses_dynamic_stack false
 *   bump:  .kernarg_segment_size 8
 *   .rela.dyn: R_AMDGPU_RELATIVE64 at 0x2a88 (addend 0x844) and 0x2a90 (addend 0x84c):
 *          the `ptrs` table pointing into `table`.
 */
#include <fcntl.h>
#include <unistd.h>

#include "sim_test_common.h"

#define EM_X86_64_ 62

/* Loads `data` into a fresh executable; returns the status, destroying what was made. */
static hsa_status_t
try_load(const test_env *env, const void *data, size_t size)
{
   hsa_code_object_reader_t reader;
   hsa_executable_t exec;
   hsa_status_t st = hsa_code_object_reader_create_from_memory(data, size, &reader);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &exec));
   st = hsa_executable_load_agent_code_object(exec, env->gpu, reader, NULL, NULL);
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK_HSA(hsa_code_object_reader_destroy(reader));
   return st;
}

static uint32_t
symbol_u32(hsa_executable_symbol_t s, hsa_executable_symbol_info_t attr)
{
   uint32_t v = 0xffffffffu;
   CHECK_HSA(hsa_executable_symbol_get_info(s, attr, &v));
   return v;
}

static hsa_status_t
count_symbol(hsa_executable_t exec, hsa_agent_t agent, hsa_executable_symbol_t s, void *data)
{
   hsa_symbol_kind_t kind;
   CHECK_HSA(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind));
   if (kind == HSA_SYMBOL_KIND_KERNEL)
      (*(int *)data)++;
   return HSA_STATUS_SUCCESS;
}

static void
test_load(const test_env *env, const char *path)
{
   int fd = open(path, O_RDONLY);
   CHECK(fd >= 0);
   hsa_code_object_reader_t reader;
   CHECK_HSA(hsa_code_object_reader_create_from_file(fd, &reader));
   close(fd);
   hsa_executable_t exec;
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &exec));
   hsa_loaded_code_object_t loaded;
   CHECK_HSA(hsa_executable_load_agent_code_object(exec, env->gpu, reader, NULL, &loaded));

   hsa_executable_symbol_t scale, bump, by_bare_name;
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, "scale.kd", &env->gpu, &scale));
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, "scale", &env->gpu, &by_bare_name));
   CHECK(scale.handle == by_bare_name.handle);
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, "bump.kd", &env->gpu, &bump));
   CHECK(hsa_executable_get_symbol_by_name(exec, "nope", &env->gpu, &bump) ==
         HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
   CHECK_HSA(hsa_executable_get_symbol_by_name(exec, "bump.kd", &env->gpu, &bump));

   /* Before freezing, the kernel object is 0 (PRM hsa_executable_symbol_info_t). */
   uint64_t kobj = 1;
   CHECK_HSA(hsa_executable_symbol_get_info(scale, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                            &kobj));
   CHECK(kobj == 0);
   CHECK_HSA(hsa_executable_freeze(exec, NULL));
   CHECK(hsa_executable_load_agent_code_object(exec, env->gpu, reader, NULL, NULL) ==
         HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
   hsa_executable_state_t state;
   CHECK_HSA(hsa_executable_get_info(exec, HSA_EXECUTABLE_INFO_STATE, &state));
   CHECK(state == HSA_EXECUTABLE_STATE_FROZEN);
   uint32_t valid = 1;
   CHECK_HSA(hsa_executable_validate(exec, &valid));
   CHECK(valid == 0);

   CHECK_HSA(hsa_executable_symbol_get_info(scale, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT,
                                            &kobj));
   CHECK(kobj != 0 && (kobj % 64) == 0);
   CHECK(symbol_u32(scale, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE) == 24);
   CHECK(symbol_u32(scale, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT) == 8);
   CHECK(symbol_u32(scale, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE) == 1024);
   CHECK(symbol_u32(scale, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE) == 0);
   CHECK(symbol_u32(bump, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE) == 8);
   bool dyn = true;
   CHECK_HSA(hsa_executable_symbol_get_info(scale,
                                            HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK,
                                            &dyn));
   CHECK(!dyn);
   uint32_t len = symbol_u32(scale, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH);
   char name[64] = {0};
   CHECK(len == strlen("scale.kd"));
   CHECK_HSA(hsa_executable_symbol_get_info(scale, HSA_EXECUTABLE_SYMBOL_INFO_NAME, name));
   CHECK(strcmp(name, "scale.kd") == 0);
   hsa_agent_t agent;
   CHECK_HSA(hsa_executable_symbol_get_info(scale, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &agent));
   CHECK(agent.handle == env->gpu.handle);
   int kernels = 0;
   CHECK_HSA(hsa_executable_iterate_agent_symbols(exec, env->gpu, count_symbol, &kernels));
   CHECK(kernels == 2);

   /* The image lives in device memory; its kernel descriptor says 1024 bytes of LDS. */
   hsa_amd_pointer_info_t info;
   memset(&info, 0, sizeof(info));
   info.size = sizeof(info);
   CHECK_HSA(hsa_amd_pointer_info((void *)(uintptr_t)kobj, &info, NULL, NULL, NULL));
   CHECK(info.type == HSA_EXT_POINTER_TYPE_HSA && info.agentOwner.handle == env->gpu.handle);
   uint8_t kd[64];
   CHECK_HSA(hsa_memory_copy(kd, (void *)(uintptr_t)kobj, sizeof(kd)));
   uint32_t group;
   memcpy(&group, kd, 4);
   CHECK(group == 1024);

   /* Relocations were applied: ptrs[] hold load address + addend. */
   uint64_t base = (uint64_t)(uintptr_t)info.agentBaseAddress;
   uint64_t ptrs[2];
   CHECK_HSA(hsa_memory_copy(ptrs, (void *)(uintptr_t)(base + 0x2a88), sizeof(ptrs)));
   CHECK(ptrs[0] == base + 0x844 && ptrs[1] == base + 0x84c);

   hsa_executable_symbol_t stale = scale;
   CHECK_HSA(hsa_executable_destroy(exec));
   CHECK(hsa_executable_symbol_get_info(stale, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &state) ==
         HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
   CHECK(hsa_executable_destroy(exec) == HSA_STATUS_ERROR_INVALID_EXECUTABLE);
   CHECK_HSA(hsa_code_object_reader_destroy(reader));
   CHECK(hsa_code_object_reader_destroy(reader) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
}

static void
test_malformed(const test_env *env, const char *path)
{
   size_t size;
   uint8_t *good = test_read_file(path, &size);
   uint8_t *bad = malloc(size);
   CHECK(bad);
   CHECK_HSA(try_load(env, good, size));

   /* Truncated. */
   CHECK(try_load(env, good, 64) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
   CHECK(try_load(env, good, size / 2) != HSA_STATUS_SUCCESS);
   /* Random bytes. */
   srand(1234);
   for (size_t i = 0; i < size; i++)
      bad[i] = (uint8_t)rand();
   CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
   /* Another machine (x86-64). */
   memcpy(bad, good, size);
   bad[18] = EM_X86_64_;
   bad[19] = 0;
   CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
   /* Another GPU: gfx900 (EF_AMDGPU_MACH 0x02c). e_flags is at byte 48. */
   memcpy(bad, good, size);
   bad[48] = 0x2c;
   CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_ISA_NAME);
   /* gfx906 with xnack on: the agent is xnack-. */
   memcpy(bad, good, size);
   bad[49] |= 0x03;
   CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_ISA_NAME);
   /* A program header pointing past the end of the file. e_phoff at byte 32. */
   memcpy(bad, good, size);
   uint64_t phoff;
   memcpy(&phoff, bad + 32, 8);
   for (int i = 0; i < 8; i++) {
      uint32_t type;
      memcpy(&type, bad + phoff + (uint64_t)i * 56, 4);
      if (type == 1 /* PT_LOAD */) {
         uint64_t off = (uint64_t)size * 4;
         memcpy(bad + phoff + (uint64_t)i * 56 + 8, &off, 8);
         break;
      }
   }
   CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
   /* Offsets near 2^64 (issue #17: `offset + size > file size` wraps): in every program
    * header's p_offset, every section header's sh_offset, and e_phoff/e_shoff themselves.
    * The loader refuses each; none reads outside the buffer (ASan pass). */
   static const uint64_t absurd[] = { UINT64_MAX, UINT64_MAX - 3, 1ull << 63 };
   uint64_t shoff;
   uint16_t phnum, shnum;
   memcpy(&phoff, good + 32, 8);
   memcpy(&shoff, good + 40, 8);
   memcpy(&phnum, good + 56, 2);
   memcpy(&shnum, good + 60, 2);
   for (size_t k = 0; k < sizeof(absurd) / sizeof(absurd[0]); k++) {
      for (unsigned i = 0; i < phnum; i++) {
         memcpy(bad, good, size);
         uint32_t type;
         memcpy(&type, bad + phoff + (uint64_t)i * 56, 4);
         memcpy(bad + phoff + (uint64_t)i * 56 + 8, &absurd[k], 8);
         hsa_status_t st = try_load(env, bad, size);
         /* Every segment must lie in the file, read or not; a PT_GNU_STACK (0x6474e551)
          * has no file extent, so its p_offset is not checked by anyone. */
         if (type != 0x6474e551u)
            CHECK(st == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
      }
      for (unsigned i = 1; i < shnum; i++) {
         memcpy(bad, good, size);
         uint32_t type;
         memcpy(&type, bad + shoff + (uint64_t)i * 64 + 4, 4);
         memcpy(bad + shoff + (uint64_t)i * 64 + 24, &absurd[k], 8);
         hsa_status_t st = try_load(env, bad, size);
         if (type == 7 /* SHT_NOTE */ || type == 11 /* SHT_DYNSYM */)
            CHECK(st != HSA_STATUS_SUCCESS);
      }
      memcpy(bad, good, size);
      memcpy(bad + 32, &absurd[k], 8);
      CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
      memcpy(bad, good, size);
      memcpy(bad + 40, &absurd[k], 8);
      CHECK(try_load(env, bad, size) == HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
   }
   /* Random corruption never crashes the loader. */
   for (int round = 0; round < 300; round++) {
      memcpy(bad, good, size);
      for (int k = 0; k < 8; k++)
         bad[(size_t)rand() % size] = (uint8_t)rand();
      (void)try_load(env, bad, size);
   }

   /* Argument checks. */
   hsa_code_object_reader_t reader;
   CHECK(hsa_code_object_reader_create_from_memory(NULL, 10, &reader) ==
         HSA_STATUS_ERROR_INVALID_ARGUMENT);
   CHECK(hsa_code_object_reader_create_from_file(-1, &reader) == HSA_STATUS_ERROR_INVALID_FILE);
   hsa_executable_t exec;
   CHECK_HSA(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &exec));
   hsa_code_object_reader_t bogus = {0x1234};
   CHECK(hsa_executable_load_agent_code_object(exec, env->gpu, bogus, NULL, NULL) ==
         HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
   CHECK_HSA(hsa_code_object_reader_create_from_memory(good, size, &reader));
   CHECK(hsa_executable_load_agent_code_object(exec, env->cpu, reader, NULL, NULL) ==
         HSA_STATUS_ERROR_INVALID_AGENT);
   CHECK_HSA(hsa_code_object_reader_destroy(reader));
   CHECK_HSA(hsa_executable_destroy(exec));
   free(good);
   free(bad);
}

int
main(int argc, char **argv)
{
   CHECK(argc == 3);
   test_env env;
   test_env_init(&env);
   test_load(&env, argv[1]);
   test_malformed(&env, argv[1]);
   test_malformed(&env, argv[2]);
   CHECK_HSA(hsa_shut_down());
   printf("sim_test_loader: ok\n");
   return 0;
}
