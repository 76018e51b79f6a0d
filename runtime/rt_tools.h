/*
 * runtime/rt_tools.h — the helper executables hsacl runs: Khronos' SPIR-V translator and
 * SPIRV-Tools' validator (compiler/comp_spirv.c says why they are processes). Where they
 * are is a fact of the system, like the HSA runtime: platform asks whether both are present
 * when it builds a device's extension list (cl_khr_il_program), the compiler runs them.
 * Depends on nothing of the driver (not even icd/), so that the offline compiler hsacl-cc,
 * which links the compiler's engine alone, links it too.
 */
#ifndef RT_TOOLS_H
#define RT_TOOLS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum rt_tool {
   RT_TOOL_SPIRV_TRANSLATOR, /* llvm-spirv-15; HSACL_SPIRV_TRANSLATOR overrides */
   RT_TOOL_SPIRV_VALIDATOR,  /* spirv-val; HSACL_SPIRV_VALIDATOR overrides */
} rt_tool;

/* The tool's command as exec is given it: the environment variable's value when set and not
 * empty, else the path found at configure time. Read on every call (tests change it). */
const char *rt_tool_command(rt_tool tool);

/* The tool's executable as exec would find it: the command itself when it names a folder,
 * else the first executable match in PATH. Writes it to `buf` (the command when none is
 * found); false when there is no such executable. */
bool rt_tool_resolve(rt_tool tool, char *buf, size_t size);

/* Both SPIR-V helpers are present (translator and validator): what IL support needs. */
bool rt_spirv_tools_present(void);

#endif
