/*
 * sim/sim_log.c — the software runtime's logger. Reads HSACL_LOG once, with the driver's
 * syntax: `error|warn|info|debug`, optionally followed by `,category[,category...]`.
 * Without HSACL_LOG nothing is printed. Output goes to stderr with a "hsacl-sim:" prefix.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_priv.h"

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static int log_level = -1; /* -1: logging off */
static char log_categories[256];

static const char *const level_names[] = {"error", "warn", "info", "debug"};

static void
log_parse(void)
{
   const char *env = getenv("HSACL_LOG");
   if (!env || !*env)
      return;
   char buf[256];
   snprintf(buf, sizeof(buf), "%s", env);
   char *comma = strchr(buf, ',');
   if (comma) {
      *comma = '\0';
      snprintf(log_categories, sizeof(log_categories), ",%s,", comma + 1);
   }
   for (int i = 0; i < 4; i++) {
      if (strcmp(buf, level_names[i]) == 0)
         log_level = i;
   }
   if (log_level < 0 && strcmp(buf, "warning") == 0)
      log_level = SIM_LOG_WARN;
   if (log_level < 0 && strcmp(buf, "all") == 0)
      log_level = SIM_LOG_DEBUG;
}

bool
sim__log_enabled(enum sim_log_level level, const char *category)
{
   pthread_once(&log_once, log_parse);
   if (log_level < 0 || (int)level > log_level)
      return false;
   /* Errors always pass the category filter. */
   if (level == SIM_LOG_ERROR || !log_categories[0] || !category)
      return true;
   char key[64];
   snprintf(key, sizeof(key), ",%s,", category);
   return strstr(log_categories, key) != NULL || strstr(log_categories, ",sim,") != NULL;
}

void
sim__log(enum sim_log_level level, const char *category, const char *fmt, ...)
{
   if (!sim__log_enabled(level, category))
      return;
   char msg[1024];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(msg, sizeof(msg), fmt, ap);
   va_end(ap);
   fprintf(stderr, "hsacl-sim: %s: %s%s%s\n", level_names[level], category ? category : "",
           category ? ": " : "", msg);
}
