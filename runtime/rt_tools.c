/*
 * runtime/rt_tools.c — finding the helper executables (rt_tools.h). No driver header: the
 * offline compiler links this file without the rest of the driver.
 */
#include "runtime/rt_tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HSACL_SPIRV_VALIDATOR
#define HSACL_SPIRV_VALIDATOR "spirv-val"
#endif
#ifndef HSACL_SPIRV_TRANSLATOR
#define HSACL_SPIRV_TRANSLATOR "llvm-spirv-15"
#endif

static const struct {
   const char *env;
   const char *configured;
} tools[] = {
   [RT_TOOL_SPIRV_TRANSLATOR] = { "HSACL_SPIRV_TRANSLATOR", HSACL_SPIRV_TRANSLATOR },
   [RT_TOOL_SPIRV_VALIDATOR] = { "HSACL_SPIRV_VALIDATOR", HSACL_SPIRV_VALIDATOR },
};

const char *
rt_tool_command(rt_tool tool)
{
   const char *e = getenv(tools[tool].env);
   return e && *e ? e : tools[tool].configured;
}

bool
rt_tool_resolve(rt_tool tool, char *buf, size_t size)
{
   const char *p = rt_tool_command(tool);
   if (strchr(p, '/')) {
      snprintf(buf, size, "%s", p);
      return access(p, X_OK) == 0;
   }
   const char *path = getenv("PATH");
   for (const char *d = path ? path : "/usr/bin:/bin"; *d;) {
      const char *end = strchr(d, ':');
      size_t len = end ? (size_t)(end - d) : strlen(d);
      if (len && len + strlen(p) + 2 < size) {
         memcpy(buf, d, len);
         buf[len] = '/';
         strcpy(buf + len + 1, p);
         if (access(buf, X_OK) == 0)
            return true;
      }
      d += len + (end ? 1 : 0);
   }
   snprintf(buf, size, "%s", p);
   return false;
}

bool
rt_spirv_tools_present(void)
{
   char found[4096];
   return rt_tool_resolve(RT_TOOL_SPIRV_TRANSLATOR, found, sizeof(found)) &&
          rt_tool_resolve(RT_TOOL_SPIRV_VALIDATOR, found, sizeof(found));
}
