/*
 * icd/icd_log.c — HSACL_LOG parsing, the log sink and CL error names.
 *
 * HSACL_LOG = level[:category[,category...]]; level is error|warn|info|debug (or none).
 * Categories name modules (icd, platform, compiler, memory, dispatch, hsa) and "api" for
 * errors returned to the application. Read once, on first use.
 */
#include "icd.h"
#include "icd_priv.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_MAX_CATEGORIES 16

static struct {
   pthread_once_t once;
   int level;             /* highest level printed; -1 prints nothing */
   bool all_categories;   /* no category list given */
   bool default_config;   /* HSACL_LOG unset: everything but "api" */
   unsigned num_categories;
   char categories[LOG_MAX_CATEGORIES][24];
} log_state = { .once = PTHREAD_ONCE_INIT };

static const char *const level_names[] = { "error", "warn", "info", "debug" };

static void
log_init(void)
{
   const char *env = getenv("HSACL_LOG");
   log_state.level = ICD_LOG_WARN;
   log_state.all_categories = true;
   if (!env || !*env) {
      log_state.default_config = true;
      return;
   }
   char buf[256];
   snprintf(buf, sizeof(buf), "%s", env);
   char *colon = strchr(buf, ':');
   if (colon)
      *colon = '\0';
   if (!strcmp(buf, "none") || !strcmp(buf, "off") || !strcmp(buf, "0"))
      log_state.level = -1;
   else {
      bool known = false;
      for (int i = 0; i < 4; i++) {
         if (!strcmp(buf, level_names[i])) {
            log_state.level = i;
            known = true;
         }
      }
      if (!known)
         fprintf(stderr, "hsacl: warn: HSACL_LOG level '%s' unknown; using warn\n", buf);
   }
   if (colon && colon[1]) {
      log_state.all_categories = false;
      char *save = NULL;
      for (char *tok = strtok_r(colon + 1, ",", &save); tok && log_state.num_categories <
           LOG_MAX_CATEGORIES; tok = strtok_r(NULL, ",", &save))
         snprintf(log_state.categories[log_state.num_categories++],
                  sizeof(log_state.categories[0]), "%s", tok);
   }
}

bool
icd_log_enabled(icd_log_level level, const char *category)
{
   pthread_once(&log_state.once, log_init);
   if ((int)level > log_state.level)
      return false;
   if (log_state.default_config)
      return strcmp(category, "api") != 0;
   if (log_state.all_categories)
      return true;
   for (unsigned i = 0; i < log_state.num_categories; i++) {
      if (!strcmp(log_state.categories[i], category))
         return true;
   }
   return false;
}

void
icd_log(icd_log_level level, const char *category, const char *fmt, ...)
{
   if (!icd_log_enabled(level, category))
      return;
   char msg[1024];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   /* One fprintf per line so lines from several threads do not interleave. */
   fprintf(stderr, "hsacl: %s: %s: %s\n", level_names[level], category, msg);
}

const char *
icd_error_name(cl_int code)
{
   switch (code) {
#define ICD_ERROR_CODE(name, value)                                                         \
   case value:                                                                              \
      return #name;
#include "icd_errors.def"
#undef ICD_ERROR_CODE
   default:
      return "CL_UNKNOWN_ERROR";
   }
}

cl_int
icd__error(const char *file, int line, const char *func, cl_int code, const char *fmt, ...)
{
   if (!icd_log_enabled(ICD_LOG_ERROR, "api"))
      return code;
   char msg[768];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   const char *base = strrchr(file, '/');
   icd_log(ICD_LOG_ERROR, "api", "%s: %s (%s:%d %s)", icd_error_name(code), msg,
           base ? base + 1 : file, line, func);
   return code;
}

void
icd__not_implemented(const char *entry_point)
{
   icd_log(ICD_LOG_WARN, "icd", "%s is not implemented yet in this version of hsacl",
           entry_point);
}
