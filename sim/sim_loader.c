/*
 * sim/sim_loader.c — code object readers, executables and executable symbols (HSA Runtime
 * PRM §2.9 "Code objects and executables"). ELF work is in sim_elf.c.
 *
 * Handles are object addresses, validated against the live lists under `loader_lock`
 * (readers, executables, and each executable's symbol array), so a stale or garbage handle
 * is an error, not a crash. Symbol names follow ROCr: a kernel's name is its ELF symbol
 * ("foo.kd"); lookups also accept the bare kernel name. NAME_LENGTH excludes the NUL and
 * NAME writes exactly NAME_LENGTH bytes (no terminator), as ROCr does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim_priv.h"

typedef struct sim_reader {
   struct sim_reader *next;
   uint8_t *data; /* private copy */
   size_t size;
} sim_reader;

typedef struct sim_defined_var {
   char *name;
   uint64_t address;
} sim_defined_var;

typedef struct sim_loaded {
   sim_code_image image;
   hsa_agent_t agent; /* the GPU it was loaded for (its device memory holds the image) */
} sim_loaded;

/* One symbol the executable exposes; `exec` is the owner, `agent` that of its code object. */
typedef struct sim_symbol {
   struct sim_executable *exec;
   const sim_elf_symbol *elf;
   hsa_agent_t agent;
} sim_symbol;

typedef struct sim_executable {
   struct sim_executable *next;
   hsa_profile_t profile;
   hsa_default_float_rounding_mode_t rounding;
   hsa_executable_state_t state;
   sim_loaded **loaded;
   uint32_t loaded_count;
   sim_symbol *symbols; /* rebuilt after each load */
   uint32_t symbol_count;
   sim_defined_var *vars;
   uint32_t var_count;
} sim_executable;

static pthread_mutex_t loader_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_reader *readers;
static sim_executable *executables;

/* ---- readers ----------------------------------------------------------------------------- */

static sim_reader *
reader_get_locked(hsa_code_object_reader_t handle)
{
   for (sim_reader *r = readers; r; r = r->next) {
      if ((uint64_t)(uintptr_t)r == handle.handle)
         return r;
   }
   return NULL;
}

static hsa_status_t
reader_publish(uint8_t *data, size_t size, hsa_code_object_reader_t *out)
{
   sim_reader *r = calloc(1, sizeof(*r));
   if (!r) {
      free(data);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   }
   r->data = data;
   r->size = size;
   pthread_mutex_lock(&loader_lock);
   r->next = readers;
   readers = r;
   pthread_mutex_unlock(&loader_lock);
   out->handle = (uint64_t)(uintptr_t)r;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
                                          hsa_code_object_reader_t *code_object_reader)
{
   SIM_CHECK_INIT();
   if (!code_object || size == 0 || !code_object_reader)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   uint8_t *copy = malloc(size);
   if (!copy)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   memcpy(copy, code_object, size);
   return reader_publish(copy, size, code_object_reader);
}

/* Reads the whole file behind `file` (from offset 0; the descriptor's offset is unchanged). */
SIM_EXPORT hsa_status_t
hsa_code_object_reader_create_from_file(hsa_file_t file,
                                        hsa_code_object_reader_t *code_object_reader)
{
   SIM_CHECK_INIT();
   if (!code_object_reader)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   struct stat st;
   if (file < 0 || fstat(file, &st) != 0 || !S_ISREG(st.st_mode))
      return HSA_STATUS_ERROR_INVALID_FILE;
   if (st.st_size <= 0)
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
   size_t size = (size_t)st.st_size;
   uint8_t *data = malloc(size);
   if (!data)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   size_t done = 0;
   while (done < size) {
      ssize_t n = pread(file, data + done, size - done, (off_t)done);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0) {
         free(data);
         return HSA_STATUS_ERROR_INVALID_FILE;
      }
      done += (size_t)n;
   }
   return reader_publish(data, size, code_object_reader);
}

SIM_EXPORT hsa_status_t
hsa_code_object_reader_destroy(hsa_code_object_reader_t code_object_reader)
{
   SIM_CHECK_INIT();
   pthread_mutex_lock(&loader_lock);
   for (sim_reader **p = &readers; *p; p = &(*p)->next) {
      if ((uint64_t)(uintptr_t)*p == code_object_reader.handle) {
         sim_reader *r = *p;
         *p = r->next;
         pthread_mutex_unlock(&loader_lock);
         free(r->data);
         free(r);
         return HSA_STATUS_SUCCESS;
      }
   }
   pthread_mutex_unlock(&loader_lock);
   return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
}

/* ---- executables ------------------------------------------------------------------------- */

static sim_executable *
exec_get_locked(hsa_executable_t handle)
{
   for (sim_executable *e = executables; e; e = e->next) {
      if ((uint64_t)(uintptr_t)e == handle.handle)
         return e;
   }
   return NULL;
}

static sim_symbol *
symbol_get_locked(hsa_executable_symbol_t handle)
{
   for (sim_executable *e = executables; e; e = e->next) {
      uintptr_t first = (uintptr_t)e->symbols;
      uintptr_t h = (uintptr_t)handle.handle;
      if (e->symbol_count && h >= first && h < first + e->symbol_count * sizeof(sim_symbol) &&
          (h - first) % sizeof(sim_symbol) == 0)
         return (sim_symbol *)h;
   }
   return NULL;
}

static hsa_status_t
exec_create(hsa_profile_t profile, hsa_default_float_rounding_mode_t rounding,
            hsa_executable_state_t state, hsa_executable_t *executable)
{
   sim_executable *e = calloc(1, sizeof(*e));
   if (!e)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   e->profile = profile;
   e->rounding = rounding;
   e->state = state;
   pthread_mutex_lock(&loader_lock);
   e->next = executables;
   executables = e;
   pthread_mutex_unlock(&loader_lock);
   executable->handle = (uint64_t)(uintptr_t)e;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_executable_create_alt(hsa_profile_t profile,
                          hsa_default_float_rounding_mode_t default_float_rounding_mode,
                          const char *options, hsa_executable_t *executable)
{
   SIM_CHECK_INIT();
   if (!executable || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) ||
       default_float_rounding_mode > HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return exec_create(profile, default_float_rounding_mode, HSA_EXECUTABLE_STATE_UNFROZEN,
                      executable);
}

SIM_EXPORT hsa_status_t
hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t executable_state,
                      const char *options, hsa_executable_t *executable)
{
   SIM_CHECK_INIT();
   if (!executable || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL) ||
       (executable_state != HSA_EXECUTABLE_STATE_FROZEN &&
        executable_state != HSA_EXECUTABLE_STATE_UNFROZEN))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   return exec_create(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, executable_state,
                      executable);
}

static void
exec_free(sim_executable *e)
{
   for (uint32_t i = 0; i < e->loaded_count; i++) {
      sim__elf_unload(&e->loaded[i]->image);
      free(e->loaded[i]);
   }
   for (uint32_t i = 0; i < e->var_count; i++)
      free(e->vars[i].name);
   free(e->vars);
   free(e->loaded);
   free(e->symbols);
   free(e);
}

SIM_EXPORT hsa_status_t
hsa_executable_destroy(hsa_executable_t executable)
{
   SIM_CHECK_INIT();
   pthread_mutex_lock(&loader_lock);
   for (sim_executable **p = &executables; *p; p = &(*p)->next) {
      if ((uint64_t)(uintptr_t)*p == executable.handle) {
         sim_executable *e = *p;
         *p = e->next;
         pthread_mutex_unlock(&loader_lock);
         exec_free(e);
         return HSA_STATUS_SUCCESS;
      }
   }
   pthread_mutex_unlock(&loader_lock);
   return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
}

/* Resolves undefined symbols against variables the application defined. Lock held. */
static bool
resolve_defined(void *ctx, const char *name, uint64_t *address)
{
   sim_executable *e = ctx;
   for (uint32_t i = 0; i < e->var_count; i++) {
      if (strcmp(e->vars[i].name, name) == 0) {
         *address = e->vars[i].address;
         return true;
      }
   }
   return false;
}

/* Rebuilds the flat symbol array from all loaded code objects. Lock held. */
static hsa_status_t
rebuild_symbols_locked(sim_executable *e)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < e->loaded_count; i++)
      n += e->loaded[i]->image.symbol_count;
   sim_symbol *s = calloc(n ? n : 1, sizeof(*s));
   if (!s)
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
   uint32_t k = 0;
   for (uint32_t i = 0; i < e->loaded_count; i++) {
      for (uint32_t j = 0; j < e->loaded[i]->image.symbol_count; j++) {
         s[k].exec = e;
         s[k].elf = &e->loaded[i]->image.symbols[j];
         s[k].agent = e->loaded[i]->agent;
         k++;
      }
   }
   free(e->symbols);
   e->symbols = s;
   e->symbol_count = n;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                      hsa_code_object_reader_t code_object_reader,
                                      const char *options,
                                      hsa_loaded_code_object_t *loaded_code_object)
{
   SIM_CHECK_INIT();
   hsa_status_t st;
   const sim_agent *a = sim__agent_get(agent);
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   if (!e) {
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
      goto out_unlock;
   }
   if (!a || a->kind != SIM_AGENT_GPU) {
      st = HSA_STATUS_ERROR_INVALID_AGENT;
      goto out_unlock;
   }
   sim_reader *r = reader_get_locked(code_object_reader);
   if (!r) {
      st = HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
      goto out_unlock;
   }
   if (e->state == HSA_EXECUTABLE_STATE_FROZEN) {
      st = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
      goto out_unlock;
   }
   sim_loaded *l = calloc(1, sizeof(*l));
   sim_loaded **list = realloc(e->loaded, (e->loaded_count + 1) * sizeof(*list));
   if (!l || !list) {
      free(l);
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      goto out_unlock;
   }
   e->loaded = list;
   l->agent = agent;
   st = sim__elf_load(r->data, r->size, a->gpu, resolve_defined, e, &l->image);
   if (st != HSA_STATUS_SUCCESS) {
      SIM_LOGW("loader", "code object rejected: status 0x%x", st);
      free(l);
      goto out_unlock;
   }
   e->loaded[e->loaded_count++] = l;
   st = rebuild_symbols_locked(e);
   if (st != HSA_STATUS_SUCCESS) {
      e->loaded_count--;
      sim__elf_unload(&l->image);
      free(l);
      goto out_unlock;
   }
   if (loaded_code_object)
      loaded_code_object->handle = (uint64_t)(uintptr_t)l;
out_unlock:
   pthread_mutex_unlock(&loader_lock);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_executable_load_program_code_object(hsa_executable_t executable,
                                        hsa_code_object_reader_t code_object_reader,
                                        const char *options,
                                        hsa_loaded_code_object_t *loaded_code_object)
{
   SIM_CHECK_INIT();
   pthread_mutex_lock(&loader_lock);
   hsa_status_t st = !exec_get_locked(executable) ? HSA_STATUS_ERROR_INVALID_EXECUTABLE
                     : !reader_get_locked(code_object_reader)
                        ? HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER
                        : HSA_STATUS_ERROR_INVALID_CODE_OBJECT; /* AMDGPU objects are agent code */
   pthread_mutex_unlock(&loader_lock);
   return st;
}

static hsa_status_t
define_var(hsa_executable_t executable, hsa_agent_t *agent, const char *name, void *address)
{
   SIM_CHECK_INIT();
   if (agent) {
      enum sim_agent_kind kind;
      if (!sim__agent_from_handle(*agent, &kind))
         return HSA_STATUS_ERROR_INVALID_AGENT;
   }
   if (!name)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   uint64_t dummy;
   if (!e) {
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
   } else if (e->state == HSA_EXECUTABLE_STATE_FROZEN) {
      st = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
   } else if (resolve_defined(e, name, &dummy)) {
      st = HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED;
   } else {
      sim_defined_var *v = realloc(e->vars, (e->var_count + 1) * sizeof(*v));
      char *copy = strdup(name);
      if (v)
         e->vars = v;
      if (!v || !copy) {
         free(copy);
         st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      } else {
         e->vars[e->var_count++] = (sim_defined_var){copy, (uint64_t)(uintptr_t)address};
      }
   }
   pthread_mutex_unlock(&loader_lock);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_executable_global_variable_define(hsa_executable_t executable, const char *variable_name,
                                      void *address)
{
   return define_var(executable, NULL, variable_name, address);
}

SIM_EXPORT hsa_status_t
hsa_executable_agent_global_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                            const char *variable_name, void *address)
{
   return define_var(executable, &agent, variable_name, address);
}

SIM_EXPORT hsa_status_t
hsa_executable_readonly_variable_define(hsa_executable_t executable, hsa_agent_t agent,
                                        const char *variable_name, void *address)
{
   return define_var(executable, &agent, variable_name, address);
}

SIM_EXPORT hsa_status_t
hsa_executable_freeze(hsa_executable_t executable, const char *options)
{
   SIM_CHECK_INIT();
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   if (!e)
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
   else if (e->state == HSA_EXECUTABLE_STATE_FROZEN)
      st = HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
   else
      e->state = HSA_EXECUTABLE_STATE_FROZEN;
   pthread_mutex_unlock(&loader_lock);
   return st;
}

/* Everything was validated at load time: a loaded executable is valid (result 0). */
SIM_EXPORT hsa_status_t
hsa_executable_validate(hsa_executable_t executable, uint32_t *result)
{
   SIM_CHECK_INIT();
   if (!result)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   pthread_mutex_unlock(&loader_lock);
   if (!e)
      return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
   *result = 0;
   return HSA_STATUS_SUCCESS;
}

SIM_EXPORT hsa_status_t
hsa_executable_validate_alt(hsa_executable_t executable, const char *options, uint32_t *result)
{
   return hsa_executable_validate(executable, result);
}

SIM_EXPORT hsa_status_t
hsa_executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute,
                        void *value)
{
   SIM_CHECK_INIT();
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   if (!e) {
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
      goto out_unlock;
   }
   if (!value) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      goto out_unlock;
   }
   switch (attribute) {
   case HSA_EXECUTABLE_INFO_PROFILE:
      *(hsa_profile_t *)value = e->profile;
      break;
   case HSA_EXECUTABLE_INFO_STATE:
      *(hsa_executable_state_t *)value = e->state;
      break;
   case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *(hsa_default_float_rounding_mode_t *)value = e->rounding;
      break;
   default:
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      break;
   }
out_unlock:
   pthread_mutex_unlock(&loader_lock);
   return st;
}

/* ---- symbols ------------------------------------------------------------------------------ */

static bool
symbol_matches(const sim_elf_symbol *s, const char *name)
{
   if (strcmp(s->name, name) == 0)
      return true;
   size_t n = strlen(name);
   return s->kernel && strlen(s->name) == n + 3 && strncmp(s->name, name, n) == 0;
}

static hsa_status_t
find_symbol(hsa_executable_t executable, const char *name, const hsa_agent_t *agent,
            hsa_executable_symbol_t *symbol)
{
   SIM_CHECK_INIT();
   if (!name || !symbol)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   if (agent) {
      enum sim_agent_kind kind;
      if (!sim__agent_from_handle(*agent, &kind))
         return HSA_STATUS_ERROR_INVALID_AGENT;
   }
   hsa_status_t st = HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   if (!e) {
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
      goto out_unlock;
   }
   for (uint32_t i = 0; i < e->symbol_count; i++) {
      if (agent && e->symbols[i].agent.handle != agent->handle)
         continue;
      if (symbol_matches(e->symbols[i].elf, name)) {
         symbol->handle = (uint64_t)(uintptr_t)&e->symbols[i];
         st = HSA_STATUS_SUCCESS;
         break;
      }
   }
out_unlock:
   pthread_mutex_unlock(&loader_lock);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char *symbol_name,
                                  const hsa_agent_t *agent, hsa_executable_symbol_t *symbol)
{
   return find_symbol(executable, symbol_name, agent, symbol);
}

SIM_EXPORT hsa_status_t
hsa_executable_get_symbol(hsa_executable_t executable, const char *module_name,
                          const char *symbol_name, hsa_agent_t agent, int32_t call_convention,
                          hsa_executable_symbol_t *symbol)
{
   return find_symbol(executable, symbol_name, &agent, symbol);
}

/*
 * Iteration calls back without loader_lock held, on a snapshot of the handles: callbacks
 * may query symbols. The executable must not be destroyed or loaded into meanwhile (PRM).
 */
static hsa_status_t
snapshot_symbols(hsa_executable_t executable, const hsa_agent_t *agent,
                 hsa_executable_symbol_t **out, uint32_t *count)
{
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   if (!e) {
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE;
      goto out_unlock;
   }
   *count = 0;
   *out = malloc((e->symbol_count ? e->symbol_count : 1) * sizeof(**out));
   if (!*out) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      goto out_unlock;
   }
   for (uint32_t i = 0; i < e->symbol_count; i++) {
      if (!agent || e->symbols[i].agent.handle == agent->handle)
         (*out)[(*count)++].handle = (uint64_t)(uintptr_t)&e->symbols[i];
   }
out_unlock:
   pthread_mutex_unlock(&loader_lock);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_executable_iterate_symbols(hsa_executable_t executable,
                               hsa_status_t (*callback)(hsa_executable_t exec,
                                                        hsa_executable_symbol_t symbol,
                                                        void *data),
                               void *data)
{
   SIM_CHECK_INIT();
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_executable_symbol_t *syms;
   uint32_t n;
   hsa_status_t st = snapshot_symbols(executable, NULL, &syms, &n);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   for (uint32_t i = 0; i < n && st == HSA_STATUS_SUCCESS; i++)
      st = callback(executable, syms[i], data);
   free(syms);
   return st;
}

SIM_EXPORT hsa_status_t
hsa_executable_iterate_agent_symbols(hsa_executable_t executable, hsa_agent_t agent,
                                     hsa_status_t (*callback)(hsa_executable_t exec,
                                                              hsa_agent_t agent,
                                                              hsa_executable_symbol_t symbol,
                                                              void *data),
                                     void *data)
{
   SIM_CHECK_INIT();
   enum sim_agent_kind kind;
   if (!sim__agent_from_handle(agent, &kind))
      return HSA_STATUS_ERROR_INVALID_AGENT;
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   hsa_executable_symbol_t *syms;
   uint32_t n;
   hsa_status_t st = snapshot_symbols(executable, &agent, &syms, &n);
   if (st != HSA_STATUS_SUCCESS)
      return st;
   if (kind == SIM_AGENT_GPU) {
      for (uint32_t i = 0; i < n && st == HSA_STATUS_SUCCESS; i++)
         st = callback(executable, agent, syms[i], data);
   }
   free(syms);
   return st;
}

/* Program (agent-independent) symbols: AMDGPU code objects define none. */
SIM_EXPORT hsa_status_t
hsa_executable_iterate_program_symbols(hsa_executable_t executable,
                                       hsa_status_t (*callback)(hsa_executable_t exec,
                                                                hsa_executable_symbol_t symbol,
                                                                void *data),
                                       void *data)
{
   SIM_CHECK_INIT();
   if (!callback)
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = exec_get_locked(executable);
   pthread_mutex_unlock(&loader_lock);
   return e ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_EXECUTABLE;
}

SIM_EXPORT hsa_status_t
hsa_executable_symbol_get_info(hsa_executable_symbol_t executable_symbol,
                               hsa_executable_symbol_info_t attribute, void *value)
{
   SIM_CHECK_INIT();
   hsa_status_t st = HSA_STATUS_SUCCESS;
   pthread_mutex_lock(&loader_lock);
   sim_symbol *sym = symbol_get_locked(executable_symbol);
   if (!sym) {
      st = HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
      goto out_unlock;
   }
   if (!value) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      goto out_unlock;
   }
   const sim_elf_symbol *s = sym->elf;
   bool frozen = sym->exec->state == HSA_EXECUTABLE_STATE_FROZEN;
   switch ((int)attribute) {
   case HSA_EXECUTABLE_SYMBOL_INFO_TYPE:
      *(hsa_symbol_kind_t *)value = s->kernel ? HSA_SYMBOL_KIND_KERNEL : HSA_SYMBOL_KIND_VARIABLE;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(s->name);
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_NAME:
      memcpy(value, s->name, strlen(s->name));
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH:
      *(uint32_t *)value = 0;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME:
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_AGENT:
      *(hsa_agent_t *)value = sym->agent;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE:
      *(hsa_symbol_linkage_t *)value = HSA_SYMBOL_LINKAGE_PROGRAM;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION:
      *(bool *)value = true;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS:
      *(uint64_t *)value = !s->kernel && frozen ? s->address : 0;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION:
      *(hsa_variable_allocation_t *)value = HSA_VARIABLE_ALLOCATION_AGENT;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT:
      *(hsa_variable_segment_t *)value = s->is_const ? HSA_VARIABLE_SEGMENT_READONLY
                                                     : HSA_VARIABLE_SEGMENT_GLOBAL;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT:
      *(uint32_t *)value = s->align;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE:
      *(uint32_t *)value = (uint32_t)s->size;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST:
      *(bool *)value = s->is_const;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT:
      *(uint64_t *)value = s->kernel && frozen ? s->address : 0;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE:
      *(uint32_t *)value = s->kernarg_size;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT:
      *(uint32_t *)value = s->kernarg_align;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE:
      *(uint32_t *)value = s->group_size;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE:
      *(uint32_t *)value = s->private_size;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK:
      *(bool *)value = s->dynamic_callstack;
      break;
   case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION:
      *(uint32_t *)value = 0;
      break;
   default:
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      break;
   }
out_unlock:
   pthread_mutex_unlock(&loader_lock);
   return st;
}

void
sim__loader_finish(void)
{
   pthread_mutex_lock(&loader_lock);
   sim_executable *e = executables;
   sim_reader *r = readers;
   executables = NULL;
   readers = NULL;
   pthread_mutex_unlock(&loader_lock);
   while (e) {
      sim_executable *next = e->next;
      exec_free(e);
      e = next;
   }
   while (r) {
      sim_reader *next = r->next;
      free(r->data);
      free(r);
      r = next;
   }
}
