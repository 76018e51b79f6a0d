/*
 * comp_spirv.c — the front of SPIR-V ingestion (clCreateProgramWithIL): reading a module's
 * header and instructions, validation with SPIRV-Tools, specialization, and translation to
 * LLVM bitcode by Khronos' SPIRV-LLVM-Translator.
 *
 * Validation: SPIRV-Tools' validator, Debian's spirv-val, as a helper process
 * (run_validator says why; HSACL_SPIRV_VALIDATOR names another executable). SPIRV-Tools
 * has no OpenCL 3.x environment; a module is validated against the universal environment
 * of its own SPIR-V version (the core rules: layout, types, ids, control flow), and the
 * rules of the OpenCL environment specification that decide whether hsacl can run it are
 * checked here (Kernel capability, Physical64 addressing, OpenCL memory model, versions
 * 1.0-1.4).
 *
 * Translation: Debian packages the translator only for LLVM 15 (llvm-spirv-15), and
 * LLVM 15's bitcode is what LLVM 19 reads. It runs as a helper process, not as a library in
 * this process: libLLVMSPIRVLib.so.15 pulls libLLVM-15.so.1 in beside the LLVM 19 the
 * compiler is built on, two copies of one C++ code base whose global state (command-line
 * option registries, static constructors, weak template instances) would meet in one
 * process. A process costs about 20 ms (the translator's start-up and LLVM 15's
 * relocations) against the hundreds of milliseconds of the back half, and a translator
 * crash on a hostile module becomes a build error instead of the application's crash.
 * The module goes in through a memfd (the translator seeks its input, so a pipe will not
 * do; no file is created), the bitcode comes back on a pipe, the messages on another; the
 * child inherits no other descriptor. HSACL_SPIRV_TRANSLATOR names another translator
 * executable (tests use it to check the error when it is missing).
 *
 * Normalization: see normalize() (OpAtomicCompareExchangeWeak in SPIR-V 1.4 modules) and
 * strip_debug_info() (the OpenCL.DebugInfo.100 instructions, cl_khr_spirv_extended_debug_info)
 * and comp__spirv_order_blocks() (blocks out of dominance order, as llvm-spirv-15 writes
 * some optimised code: comp_spirv_order.c).
 * Lowering: the SPIR-V 1.4 instructions the translator cannot read are rewritten after
 * validation and specialization (comp_spirv_lower.c).
 *
 * Specialization (clSetProgramSpecializationConstant): the default value of each
 * OpSpecConstant{,True,False} decorated with the SpecId is replaced in a copy of the module
 * before translation, which then takes it as the constant's value (SPIR-V 2.12: a
 * specialization constant not specialized has its default value).
 */
#define _GNU_SOURCE
#include "comp_priv.h"
#include "runtime/rt_tools.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


extern char **environ;

#define SPV_MAGIC 0x07230203u

/* Opcodes and operands of the SPIR-V 1.4 specification (section 3) this file reads. */
enum {
   OP_NAME = 5,
   OP_MEMBER_NAME = 6,
   OP_EXT_INST_IMPORT = 11,
   OP_EXT_INST = 12,
   OP_MEMORY_MODEL = 14,
   OP_ENTRY_POINT = 15,
   OP_CAPABILITY = 17,
   OP_TYPE_BOOL = 20,
   OP_TYPE_INT = 21,
   OP_TYPE_FLOAT = 22,
   OP_SPEC_CONSTANT_TRUE = 48,
   OP_SPEC_CONSTANT_FALSE = 49,
   OP_SPEC_CONSTANT = 50,
   OP_DECORATE = 71,
   OP_MEMBER_DECORATE = 72,
   OP_ATOMIC_COMPARE_EXCHANGE = 230,
   OP_ATOMIC_COMPARE_EXCHANGE_WEAK = 231,
   DECORATION_SPEC_ID = 1,
   ADDRESSING_PHYSICAL64 = 2,
   MEMORY_MODEL_OPENCL = 2,
   CAPABILITY_KERNEL = 6,
   EXECUTION_MODEL_KERNEL = 6,
};

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
format(const char *fmt, ...)
{
   va_list ap;
   char *s = NULL;
   va_start(ap, fmt);
   if (vasprintf(&s, fmt, ap) < 0)
      s = NULL;
   va_end(ap);
   return s;
}

static uint32_t
word(const uint32_t *w, size_t i, bool swap)
{
   return swap ? __builtin_bswap32(w[i]) : w[i];
}

/* Rewrites OpAtomicCompareExchangeWeak as OpAtomicCompareExchange (same operands) in a
 * module whose word counts were checked. Khronos' translator for LLVM 15 writes SPIR-V 1.4
 * modules by default and still emits the Weak form there, which SPIR-V 1.4 removed (the
 * validator: "AtomicCompareExchangeWeak requires SPIR-V version 1.3 or earlier"): every
 * OpenCL C 2.0 atomic_compare_exchange_weak compiled with it. A strong exchange is a valid
 * weak one (it never fails spuriously), and the two translate to the same LLVM cmpxchg. */
static void
normalize(uint32_t *w, size_t n, bool swap)
{
   for (size_t i = 5; i < n;) {
      uint32_t first = word(w, i, swap), count = first >> 16;
      if (count == 0 || count > n - i)
         return;
      if ((first & 0xffff) == OP_ATOMIC_COMPARE_EXCHANGE_WEAK) {
         first = (first & 0xffff0000u) | OP_ATOMIC_COMPARE_EXCHANGE;
         w[i] = swap ? __builtin_bswap32(first) : first;
      }
      i += count;
   }
}

/* True when the OpExtInstImport at w[i] (`count` words) imports OpenCL.DebugInfo.100. The
 * name is a literal string: UTF-8 bytes in word order, each word's first byte lowest. */
static bool
imports_debug_info(const uint32_t *w, size_t i, uint32_t count, bool swap)
{
   static const char name[] = "OpenCL.DebugInfo.100";
   char buf[sizeof(name) + 4] = { 0 };
   size_t len = 0;
   for (size_t k = i + 2; k < i + count && len + 4 <= sizeof(buf); k++) {
      uint32_t v = word(w, k, swap);
      for (unsigned b = 0; b < 4; b++)
         buf[len++] = (char)(v >> (8 * b));
   }
   buf[sizeof(buf) - 1] = 0;
   return !strcmp(buf, name);
}

/* Removes the OpenCL.DebugInfo.100 extended instructions from a module whose word counts were
 * checked, in place; returns the new number of words. Debug information is non-semantic
 * (SPIR-V environment for OpenCL §"cl_khr_spirv_extended_debug_info": it describes the
 * source, it does not change what a kernel does), and hsacl's code objects carry none, so
 * dropping it is what accepting it means here. It goes before validation too: SPIRV-Tools
 * 2023.1 rejects what Khronos' translator for LLVM 15 writes for `clang -g` (DebugInfoNone
 * as a DebugSource's text, as a void function's return type), and the translator itself
 * is then spared other producers' debug info. Removed: the import, every OpExtInst of the
 * set (their results are used only by other instructions of the set), and the OpName,
 * OpMemberName, OpDecorate and OpMemberDecorate naming one of those results. A module
 * whose id bound is implausible (more than 2^24) is left as it is, for the validator. */
static size_t
strip_debug_info(uint32_t *w, size_t n, bool swap)
{
   uint32_t bound = word(w, 3, swap);
   if (bound == 0 || bound > (1u << 24))
      return n;
   uint8_t *dropped = NULL; /* one byte per id: 1 = a debug set, 2 = a removed result */
   for (size_t i = 5; i < n;) {
      uint32_t first = word(w, i, swap), count = first >> 16;
      if (count == 0 || count > n - i)
         break;
      if ((first & 0xffff) == OP_EXT_INST_IMPORT && count >= 3 &&
          imports_debug_info(w, i, count, swap) && word(w, i + 1, swap) < bound) {
         if (!dropped && !(dropped = calloc(bound, 1)))
            return n; /* out of memory: the validator will say what it thinks */
         dropped[word(w, i + 1, swap)] = 1;
      }
      i += count;
   }
   if (!dropped)
      return n;
   size_t out = 5;
   for (size_t i = 5; i < n;) {
      uint32_t first = word(w, i, swap), count = first >> 16, op = first & 0xffff;
      if (count == 0 || count > n - i)
         count = n - i; /* not an instruction (callers checked): kept as it is */
      bool drop = false;
      if (op == OP_EXT_INST_IMPORT && count >= 2)
         drop = word(w, i + 1, swap) < bound && dropped[word(w, i + 1, swap)] == 1;
      else if (op == OP_EXT_INST && count >= 5) {
         uint32_t set = word(w, i + 3, swap), id = word(w, i + 2, swap);
         if (set < bound && dropped[set] == 1) {
            drop = true;
            if (id < bound && dropped[id] == 0)
               dropped[id] = 2;
         }
      }
      if (!drop) {
         memmove(&w[out], &w[i], count * sizeof(uint32_t));
         out += count;
      }
      i += count;
   }
   /* Names and decorations come before the instructions they name (SPIR-V 2.4 logical
    * layout): a second pass, now that every removed result is known. */
   n = out;
   out = 5;
   for (size_t i = 5; i < n;) {
      uint32_t first = word(w, i, swap), count = first >> 16, op = first & 0xffff;
      if (count == 0 || count > n - i)
         count = n - i;
      bool drop = (op == OP_NAME || op == OP_MEMBER_NAME || op == OP_DECORATE ||
                   op == OP_MEMBER_DECORATE) &&
                  count >= 2 && word(w, i + 1, swap) < bound &&
                  dropped[word(w, i + 1, swap)] == 2;
      if (!drop) {
         memmove(&w[out], &w[i], count * sizeof(uint32_t));
         out += count;
      }
      i += count;
   }
   free(dropped);
   return out;
}

/* Walks the module: header, then every instruction. Fills what `info` asks for. */
static enum comp_status
scan(const void *il, size_t size, struct comp__spirv_info *info, char **why)
{
   memset(info, 0, sizeof(*info));
   if (!il || size < 20 || size % 4) {
      *why = format("a SPIR-V module is a sequence of 32-bit words with a 5-word header; "
                    "%zu bytes is not",
                    size);
      return COMP_INVALID_BINARY;
   }
   const uint32_t *w = il;
   size_t n = size / 4;
   bool swap;
   if (w[0] == SPV_MAGIC)
      swap = false;
   else if (w[0] == __builtin_bswap32(SPV_MAGIC))
      swap = true;
   else {
      *why = format("not a SPIR-V module (magic number 0x%08x, not 0x07230203)", w[0]);
      return COMP_INVALID_BINARY;
   }
   info->swapped = swap;
   uint32_t version = word(w, 1, swap);
   info->major = version >> 16 & 0xff;
   info->minor = version >> 8 & 0xff;

   for (size_t i = 5; i < n;) {
      uint32_t first = word(w, i, swap);
      uint32_t count = first >> 16, op = first & 0xffff;
      if (count == 0 || count > n - i) {
         *why = format("instruction at word %zu has a word count of %u (the module has %zu "
                       "words)",
                       i, count, n);
         return COMP_INVALID_BINARY;
      }
      switch (op) {
      case OP_CAPABILITY:
         if (count >= 2 && word(w, i + 1, swap) == CAPABILITY_KERNEL)
            info->kernel_capability = true;
         break;
      case OP_MEMORY_MODEL:
         if (count >= 3) {
            info->addressing = word(w, i + 1, swap);
            info->memory_model = word(w, i + 2, swap);
            info->has_memory_model = true;
         }
         break;
      case OP_ENTRY_POINT:
         if (count >= 2 && word(w, i + 1, swap) == EXECUTION_MODEL_KERNEL)
            info->num_kernels++;
         break;
      default:
         break;
      }
      i += count;
   }
   return COMP_OK;
}

/* ---- helper processes ------------------------------------------------------------------
 * The validator and the translator run as processes started with posix_spawn, never as a
 * fork of this one: the application's process has other threads (the HSA runtime's, the
 * application's own), and a forked child inherits every lock they held at that moment, so
 * a child that allocates (both tools are C++) can wait forever on a malloc or runtime lock
 * nobody will release; and the parent with it. */

struct growbuf {
   char *data;
   size_t size, cap;
};

static bool
grow_append(struct growbuf *b, const char *src, size_t n)
{
   if (b->size + n + 1 > b->cap) {
      size_t cap = b->cap ? b->cap * 2 : 65536;
      while (cap < b->size + n + 1)
         cap *= 2;
      char *d = realloc(b->data, cap);
      if (!d)
         return false;
      b->data = d;
      b->cap = cap;
   }
   memcpy(b->data + b->size, src, n);
   b->size += n;
   b->data[b->size] = 0;
   return true;
}

/* A helper's time limit (HSACL_SPIRV_TIMEOUT seconds, default 120): a module that makes the
 * validator or the translator loop must not hang the API call. */
static int
timeout_ms(void)
{
   const char *e = getenv("HSACL_SPIRV_TIMEOUT");
   long s = e && *e ? strtol(e, NULL, 10) : 120;
   return s > 0 && s < 86400 ? (int)(s * 1000) : 120000;
}

static int64_t
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* How a helper process ended. */
struct run_result {
   bool timed_out; /* stopped (SIGKILL) at the time limit */
   bool overflow;  /* stopped (SIGKILL): wrote more than HELPER_MAX_OUTPUT */
   int status;     /* waitpid's status otherwise */
};

/* Writes `size` bytes of `data` to a new memfd and rewinds it (the tools seek their input,
 * so a pipe will not do; no file is created). Returns the descriptor, or -1 with *why. */
static int
input_memfd(const char *what, const void *data, size_t size, char **why)
{
   int fd = memfd_create("hsacl-spirv", MFD_CLOEXEC);
   if (fd < 0) {
      *why = format("cannot set up the %s's input: %s", what, strerror(errno));
      return -1;
   }
   for (size_t done = 0; done < size;) {
      ssize_t k = write(fd, (const char *)data + done, size - done);
      if (k < 0 && errno == EINTR)
         continue;
      if (k <= 0) {
         *why = format("cannot write the module for the %s: %s", what, strerror(errno));
         close(fd);
         return -1;
      }
      done += (size_t)k;
   }
   if (lseek(fd, 0, SEEK_SET) != 0) {
      *why = format("cannot rewind the %s's input: %s", what, strerror(errno));
      close(fd);
      return -1;
   }
   return fd;
}

/* What a helper may write: bitcode (or the validator's report) up to HELPER_MAX_OUTPUT
 * bytes, a translator run that writes more is stopped as broken (a SPIR-V module of the
 * 64 MiB a build accepts translates to bitcode of about its size); messages past
 * HELPER_MAX_MESSAGES bytes are dropped (the first lines name the problem). A helper's
 * address space is bounded too (HELPER_MAX_MEMORY, RLIMIT_AS): a module that makes it
 * allocate without end ends it, not the machine. */
#define HELPER_MAX_OUTPUT ((size_t)256 << 20)
#define HELPER_MAX_MESSAGES ((size_t)1 << 20)
#define HELPER_MAX_MEMORY ((rlim_t)4 << 30)

/* Reads the child's standard output into *out and its standard error into *msgs until
 * both close or the deadline passes; false when the time ran out. A failed allocation
 * sets *oom and stops reading; output past HELPER_MAX_OUTPUT sets *overflow and stops. */
static bool
collect_output(int outfd, int errfd, struct growbuf *out, struct growbuf *msgs, bool *oom,
               bool *overflow)
{
   struct pollfd pfd[2] = { { outfd, POLLIN, 0 }, { errfd, POLLIN, 0 } };
   int64_t deadline = now_ms() + timeout_ms();
   while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
      int64_t left = deadline - now_ms();
      if (left <= 0)
         return false;
      int k = poll(pfd, 2, (int)left);
      if (k < 0 && errno == EINTR)
         continue;
      if (k < 0)
         return true;
      for (int j = 0; j < 2; j++) {
         if (pfd[j].fd < 0 || !pfd[j].revents)
            continue;
         char buf[65536];
         ssize_t r = read(pfd[j].fd, buf, sizeof(buf));
         if (r < 0 && errno == EINTR)
            continue;
         if (r <= 0) {
            pfd[j].fd = -1;
            continue;
         }
         if (j && msgs->size + (size_t)r > HELPER_MAX_MESSAGES)
            continue;
         if (!j && out->size + (size_t)r > HELPER_MAX_OUTPUT) {
            *overflow = true;
            return true;
         }
         if (!grow_append(j ? msgs : out, buf, (size_t)r)) {
            *oom = true;
            return true;
         }
      }
   }
   return true;
}

/* The helper's environment: this process's, with LLVM's crash-time symbolization off. A
 * translator that crashes on a module (a hostile or damaged one can make llvm-spirv-15
 * abort) would otherwise start llvm-symbolizer for its stack trace, which costs more than
 * the translation; the build fails either way, and the log keeps the unsymbolized trace.
 * malloc'd array of borrowed strings; NULL when out of memory. */
static char **
helper_environ(void)
{
   static char nosym[] = "LLVM_DISABLE_SYMBOLIZATION=1";
   const size_t name_len = sizeof("LLVM_DISABLE_SYMBOLIZATION=") - 1;
   size_t n = 0;
   while (environ[n])
      n++;
   char **env = malloc((n + 2) * sizeof(*env));
   if (!env)
      return NULL;
   size_t k = 0;
   for (size_t i = 0; i < n; i++)
      if (strncmp(environ[i], nosym, name_len))
         env[k++] = environ[i];
   env[k++] = nosym;
   env[k] = NULL;
   return env;
}

/*
 * Runs argv[0] (looked up in PATH unless it names a folder) with `input` on its standard
 * input, its standard output in *out and its standard error in *msgs (both malloc'd and
 * NUL-terminated when not empty, also on failure). COMP_OK when the process ran: *res says
 * how it ended. Else an error with *why set (`what` names the tool).
 */
static enum comp_status
run_process(const char *what, char *const argv[], const void *input, size_t size,
            struct growbuf *out, struct growbuf *msgs, struct run_result *res, char **why)
{
   enum comp_status st = COMP_INTERNAL_ERROR;
   int in = -1, outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
   pid_t pid = -1;
   posix_spawn_file_actions_t fa;
   bool fa_ok = false, oom = false;
   char **env = NULL;

   res->timed_out = false;
   res->overflow = false;
   res->status = 0;
   in = input_memfd(what, input, size, why);
   if (in < 0)
      goto out_close;
   if (pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
      *why = format("cannot set up the %s's output: %s", what, strerror(errno));
      goto out_close;
   }
   if (posix_spawn_file_actions_init(&fa)) {
      st = COMP_OUT_OF_MEMORY;
      goto out_close;
   }
   fa_ok = true;
   /* dup2 clears FD_CLOEXEC on the copies; everything else the process has open is
    * close-on-exec or closed here (closefrom), so the child holds only these three. */
   if (posix_spawn_file_actions_adddup2(&fa, in, 0) ||
       posix_spawn_file_actions_adddup2(&fa, outp[1], 1) ||
       posix_spawn_file_actions_adddup2(&fa, errp[1], 2) ||
       posix_spawn_file_actions_addclosefrom_np(&fa, 3)) {
      st = COMP_OUT_OF_MEMORY;
      goto out_close;
   }
   env = helper_environ();
   if (!env) {
      st = COMP_OUT_OF_MEMORY;
      goto out_close;
   }
   int rc = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &fa, NULL, argv, env)
                                 : posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
   if (rc) {
      pid = -1;
      *why = format("cannot run the %s '%s': %s", what, argv[0], strerror(rc));
      goto out_close;
   }
   /* Set after the start, so it may apply a moment late: it bounds what the tool
    * allocates, which it does after loading. */
   const struct rlimit mem = { HELPER_MAX_MEMORY, HELPER_MAX_MEMORY };
   prlimit(pid, RLIMIT_AS, &mem, NULL);
   close(outp[1]);
   close(errp[1]);
   outp[1] = errp[1] = -1;
   res->timed_out = !collect_output(outp[0], errp[0], out, msgs, &oom, &res->overflow);
   if (res->timed_out || oom || res->overflow)
      kill(pid, SIGKILL);
   while (waitpid(pid, &res->status, 0) < 0 && errno == EINTR)
      ;
   pid = -1;
   st = oom ? COMP_OUT_OF_MEMORY : COMP_OK;

out_close:
   free(env);
   if (fa_ok)
      posix_spawn_file_actions_destroy(&fa);
   if (in >= 0)
      close(in);
   for (int j = 0; j < 2; j++) {
      if (outp[j] >= 0)
         close(outp[j]);
      if (errp[j] >= 0)
         close(errp[j]);
   }
   return st;
}

/* ---- validation ----------------------------------------------------------------------- */

/*
 * Runs SPIRV-Tools' validator (spirv-val) on the host-order words of `module`, against the
 * universal environment of SPIR-V 1.`minor`. A process: the validator is not hardened
 * against malformed modules (Debian's SPIRV-Tools 2023.1 dereferences NULL in
 * ValidateExtInst for an OpenCL.std vstore_halfn_r whose operand has no scalar type, found
 * by fuzz_spirv from a kernel-corpus seed), and clCreateProgramWithIL must not end the
 * application. COMP_OK when it accepts the module; else COMP_INVALID_BINARY with its
 * reason, or another error when it cannot run (*why says which).
 */
static enum comp_status
run_validator(const uint32_t *module, size_t size, uint32_t minor, char **why)
{
   char env[16];
   snprintf(env, sizeof(env), "spv1.%u", minor);
   char *argv[] = { (char *)rt_tool_command(RT_TOOL_SPIRV_VALIDATOR), "--target-env", env, "-",
                    NULL };
   struct growbuf out = { 0 }, msgs = { 0 };
   struct run_result res;
   enum comp_status st = run_process("SPIR-V validator", argv, module, size, &out, &msgs, &res,
                                     why);
   if (st == COMP_INTERNAL_ERROR && *why) {
      char *more = format("%s (install Debian's spirv-tools, or set HSACL_SPIRV_VALIDATOR)",
                          *why);
      if (more) {
         free(*why);
         *why = more;
      }
   } else if (st == COMP_OK && res.timed_out) {
      *why = format("the SPIR-V validator did not finish within %d s (HSACL_SPIRV_TIMEOUT)",
                    timeout_ms() / 1000);
      st = COMP_INVALID_BINARY;
   } else if (st == COMP_OK && res.overflow) {
      *why = format("the SPIR-V validator wrote more than %zu MiB", HELPER_MAX_OUTPUT >> 20);
      st = COMP_INVALID_BINARY;
   } else if (st == COMP_OK && WIFSIGNALED(res.status)) {
      *why = format("the SPIR-V validator crashed on the module (signal %d): it is malformed",
                    WTERMSIG(res.status));
      st = COMP_INVALID_BINARY;
   } else if (st == COMP_OK && (!WIFEXITED(res.status) || WEXITSTATUS(res.status) != 0)) {
      /* Its first line names the rule ("error: line 12: ..."); the rest is context. */
      char *text = msgs.size ? msgs.data : out.size ? out.data : NULL;
      if (text) {
         text[strcspn(text, "\n")] = 0;
         if (!strncmp(text, "error: ", 7))
            text += 7;
      }
      *why = format("the SPIR-V validator rejects the module: %s",
                    text && *text ? text : "no reason given");
      st = COMP_INVALID_BINARY;
   }
   free(out.data);
   free(msgs.data);
   return st;
}

enum comp_status
comp__spirv_check(const void *il, size_t size, struct comp__spirv_info *info, char **why)
{
   *why = NULL;
   enum comp_status st = scan(il, size, info, why);
   if (st != COMP_OK)
      return st;
   if (info->major != 1 || info->minor > 4) {
      *why = format("SPIR-V %u.%u: hsacl reads SPIR-V 1.0 to 1.4", info->major, info->minor);
      return COMP_INVALID_BINARY;
   }
   /* The validator reads host-order words, of the module as it will be translated. */
   uint32_t *copy = malloc(size);
   if (!copy)
      return COMP_OUT_OF_MEMORY;
   const uint32_t *in = il;
   for (size_t i = 0; i < size / 4; i++)
      copy[i] = info->swapped ? __builtin_bswap32(in[i]) : in[i];
   normalize(copy, size / 4, false);
   size_t words = strip_debug_info(copy, size / 4, false);
   comp__spirv_order_blocks(copy, words);
   /* Validated as the translator will see it: SPIRV-Tools refuses OpenCL's Workgroup clock. */
   uint32_t *clock = NULL;
   size_t clock_words = 0;
   st = comp__spirv_lower_clock(copy, words, &clock, &clock_words, why);
   if (st == COMP_OK)
      st = clock ? run_validator(clock, clock_words * 4, info->minor, why)
                 : run_validator(copy, words * 4, info->minor, why);
   free(clock);
   free(copy);
   if (st != COMP_OK)
      return st;

   /* OpenCL 3.0 SPIR-V environment §2-§3: kernels need the Kernel capability, the OpenCL
    * memory model, and Physical64 addressing on a device with 64 address bits. */
   if (!info->kernel_capability) {
      *why = format("the module does not declare the Kernel capability: it is not an "
                    "OpenCL module (a Vulkan or OpenGL shader?)");
      return COMP_INVALID_BINARY;
   }
   if (!info->has_memory_model || info->memory_model != MEMORY_MODEL_OPENCL) {
      *why = format("the module's memory model is %u, not OpenCL (2)", info->memory_model);
      return COMP_INVALID_BINARY;
   }
   if (info->addressing != ADDRESSING_PHYSICAL64) {
      *why = format("the module's addressing model is %s, but the device has 64 address "
                    "bits (Physical64, 2; compile for spir64, not spir)",
                    info->addressing == 1 ? "Physical32" : "not Physical64");
      return COMP_INVALID_BINARY;
   }
   return COMP_OK;
}

/* Where the specialization constant `spec_id` is: its instruction's word index and opcode,
 * its size in bytes (1 for bool, width / 8 for integers and floats) and the number of value
 * words (0 for bool). */
struct spec_slot {
   size_t at;
   uint32_t op;
   uint32_t size;
   uint32_t value_words;
};

/* The SPIR-V layout (2.4) puts decorations, then types and constants: three passes over a
 * module comp__spirv_check accepted (word counts are known to be in bounds). */
static bool
find_spec(const uint32_t *w, size_t n, bool swap, uint32_t spec_id, struct spec_slot *slot)
{
   uint32_t target = 0, type_id = 0;
   for (size_t i = 5; i < n && !target; i += word(w, i, swap) >> 16) {
      uint32_t first = word(w, i, swap), count = first >> 16;
      if (count == 0)
         return false;
      if ((first & 0xffff) == OP_DECORATE && count >= 4 &&
          word(w, i + 2, swap) == DECORATION_SPEC_ID && word(w, i + 3, swap) == spec_id)
         target = word(w, i + 1, swap);
   }
   if (!target)
      return false;
   for (size_t i = 5; i < n && !type_id; i += word(w, i, swap) >> 16) {
      uint32_t first = word(w, i, swap), count = first >> 16, op = first & 0xffff;
      if (count == 0)
         return false;
      if ((op == OP_SPEC_CONSTANT || op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE) &&
          count >= 3 && word(w, i + 2, swap) == target) {
         slot->at = i;
         slot->op = op;
         slot->value_words = count - 3;
         type_id = word(w, i + 1, swap);
      }
   }
   if (!type_id)
      return false;
   for (size_t i = 5; i < n; i += word(w, i, swap) >> 16) {
      uint32_t first = word(w, i, swap), count = first >> 16, op = first & 0xffff;
      if (count == 0)
         return false;
      /* Only the type declaration: OpName, OpDecorate, ... of the type name it too. */
      if (count < 2 || word(w, i + 1, swap) != type_id ||
          (op != OP_TYPE_BOOL && op != OP_TYPE_INT && op != OP_TYPE_FLOAT))
         continue;
      if (op == OP_TYPE_BOOL) {
         slot->size = 1;
         return slot->op != OP_SPEC_CONSTANT;
      }
      if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3) {
         uint32_t width = word(w, i + 2, swap);
         slot->size = width / 8;
         return slot->op == OP_SPEC_CONSTANT && width % 8 == 0 && width >= 8 && width <= 64 &&
                slot->value_words == (width > 32 ? 2u : 1u);
      }
      return false;
   }
   return false;
}

uint32_t
comp__spirv_spec_size(const void *il, size_t size, uint32_t spec_id)
{
   struct comp__spirv_info info;
   char *why = NULL;
   if (scan(il, size, &info, &why) != COMP_OK) {
      free(why);
      return 0;
   }
   struct spec_slot slot;
   return find_spec(il, size / 4, info.swapped, spec_id, &slot) ? slot.size : 0;
}

/* A copy of the module with the default values of the given specialization constants
 * replaced and its debug information removed (caller frees; *out_size its size in bytes).
 * NULL with *why on a constant the module lacks. */
static uint32_t *
specialize(const void *il, size_t size, const struct comp_spec_constant *sc, size_t num_sc,
           size_t *out_size, char **why)
{
   struct comp__spirv_info info;
   if (scan(il, size, &info, why) != COMP_OK)
      return NULL;
   uint32_t *w = malloc(size);
   if (!w)
      return NULL;
   memcpy(w, il, size);
   bool swap = info.swapped;
   normalize(w, size / 4, swap);
   size = strip_debug_info(w, size / 4, swap) * 4;
   comp__spirv_order_blocks(w, size / 4);
   *out_size = size;
   for (size_t k = 0; k < num_sc; k++) {
      struct spec_slot slot;
      if (!find_spec(w, size / 4, swap, sc[k].id, &slot) || slot.size != sc[k].size) {
         *why = format("specialization constant %u: not in the module, or not %u bytes", sc[k].id,
                       sc[k].size);
         free(w);
         return NULL;
      }
      uint64_t v = sc[k].value;
      if (slot.op != OP_SPEC_CONSTANT) {
         uint32_t op = v ? OP_SPEC_CONSTANT_TRUE : OP_SPEC_CONSTANT_FALSE;
         uint32_t first = (word(w, slot.at, swap) & 0xffff0000u) | op;
         w[slot.at] = swap ? __builtin_bswap32(first) : first;
         continue;
      }
      /* Literal words, low-order first; narrower types sign- or zero-extend per their
       * signedness (SPIR-V 2.2.1), which the translator reads back as the type's width:
       * the low bits are what matter. */
      uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
      if (slot.size < 4)
         lo &= (1u << (slot.size * 8)) - 1;
      w[slot.at + 3] = swap ? __builtin_bswap32(lo) : lo;
      if (slot.value_words == 2)
         w[slot.at + 4] = swap ? __builtin_bswap32(hi) : hi;
   }
   return w;
}

/* ---- the translator process --------------------------------------------------------- */

/* "<path> <size> <mtime>" of the translator executable (or "<path> missing"): what a kernel
 * cache key of an IL program depends on besides the compiler (a translator upgrade may
 * translate the same module differently). Looked up on every call: cheap next to a build. */
void
comp__spirv_translator_identity(char *buf, size_t size)
{
   char found[4096];
   struct stat st;
   if (!rt_tool_resolve(RT_TOOL_SPIRV_TRANSLATOR, found, sizeof(found)) ||
       stat(found, &st))
      snprintf(buf, size, "%s missing", found);
   else
      snprintf(buf, size, "%s %lld %lld", found, (long long)st.st_size, (long long)st.st_mtime);
}

/* Runs the translator on `module`: bitcode in *out, its messages in *msgs (both malloc'd,
 * *msgs NUL-terminated, also on failure). */
static enum comp_status
run_translator(const void *module, size_t size, struct growbuf *out, struct growbuf *msgs,
               char **why)
{
   char *argv[] = {
      (char *)rt_tool_command(RT_TOOL_SPIRV_TRANSLATOR), "-r",
      "--spirv-gen-kernel-arg-name-md",
      "--spirv-target-env=CL2.0", "-o", "-", "/dev/stdin", NULL
   };
   struct run_result res;
   enum comp_status st = run_process("SPIR-V translator", argv, module, size, out, msgs, &res,
                                     why);
   if (st == COMP_INTERNAL_ERROR && *why) {
      char *more = format("%s (install Debian's llvm-spirv-15, or set HSACL_SPIRV_TRANSLATOR)",
                          *why);
      if (more) {
         free(*why);
         *why = more;
      }
      return st;
   }
   if (st != COMP_OK)
      return st;
   if (res.timed_out) {
      *why = format("the SPIR-V translator did not finish within %d s (HSACL_SPIRV_TIMEOUT)",
                    timeout_ms() / 1000);
      return COMP_BUILD_FAILURE;
   }
   if (res.overflow) {
      *why = format("the SPIR-V translator wrote more than %zu MiB of bitcode",
                    HELPER_MAX_OUTPUT >> 20);
      return COMP_BUILD_FAILURE;
   }
   if (WIFSIGNALED(res.status)) {
      *why = format("the SPIR-V translator crashed on the module (signal %d)",
                    WTERMSIG(res.status));
      return COMP_BUILD_FAILURE;
   }
   if (!WIFEXITED(res.status) || WEXITSTATUS(res.status) != 0 || out->size < 4 ||
       memcmp(out->data, "BC\xc0\xde", 4)) {
      *why = format("the SPIR-V translator rejects the module (exit status %d)",
                    WIFEXITED(res.status) ? WEXITSTATUS(res.status) : -1);
      return COMP_BUILD_FAILURE;
   }
   return COMP_OK;
}

enum comp_status
comp__spirv_translate(const void *il, size_t size, const struct comp_spec_constant *sc,
                      size_t num_sc, void **bitcode, size_t *bitcode_size, char **log)
{
   *bitcode = NULL;
   *bitcode_size = 0;
   *log = NULL;
   char *why = NULL;
   struct growbuf out = { 0 }, msgs = { 0 };
   uint32_t *module = specialize(il, size, sc, num_sc, &size, &why);
   if (!module) {
      *log = why ? format("error: %s\n", why) : NULL;
      free(why);
      return why ? COMP_BUILD_FAILURE : COMP_OUT_OF_MEMORY;
   }
   /* The rewrites of comp_spirv_lower.c, on the specialized words. */
   uint32_t *lowered = NULL;
   size_t lowered_words = 0;
   struct comp__spirv_info info;
   enum comp_status st = scan(module, size, &info, &why);
   if (st == COMP_OK)
      st = comp__spirv_lower(module, size / 4, info.swapped, &lowered, &lowered_words, &why);
   free(module);
   if (st == COMP_OK) {
      uint32_t *clock = NULL;
      size_t clock_words = 0;
      st = comp__spirv_lower_clock(lowered, lowered_words, &clock, &clock_words, &why);
      if (clock) {
         free(lowered);
         lowered = clock;
         lowered_words = clock_words;
      }
   }
   if (st != COMP_OK) {
      free(lowered);
      *log = why ? format("error: %s\n", why) : NULL;
      free(why);
      return st == COMP_OUT_OF_MEMORY ? st : COMP_BUILD_FAILURE;
   }
   st = run_translator(lowered, lowered_words * 4, &out, &msgs, &why);
   free(lowered);
   if (st == COMP_OK) {
      *bitcode = out.data;
      *bitcode_size = out.size;
      out.data = NULL;
   } else {
      /* The translator's own words first: they name the construct it cannot read. */
      *log = format("error: %s%s%s\n", why ? why : "cannot translate the SPIR-V module",
                    msgs.size ? ": " : "", msgs.size ? msgs.data : "");
   }
   free(why);
   free(out.data);
   free(msgs.data);
   return st;
}
