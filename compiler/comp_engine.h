/*
 * comp_engine.h — the compiler engine's boundary (comp_engine.c, docs/architecture.md "The
 * compiler engine"): what libhsacl-compiler.so exports, and how the driver finds it.
 */
#ifndef COMP_ENGINE_H
#define COMP_ENGINE_H

#include "comp_llvm.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COMP_ENGINE_MODULE "libhsacl-compiler.so"

/* The engine's build (comp_llvm.cpp), comp_build's contract; the one symbol
 * libhsacl-compiler.so exports (default visibility against the build's hidden preset). */
__attribute__((visibility("default"))) enum comp_status
comp_engine_build(const struct comp_build_desc *desc, struct comp_output *out);

/* True when this binary links the engine's objects (comp_build calls them directly). */
bool
comp__engine_linked(void);

/* The address of comp_engine_build when linked (for its binary's build ID), else NULL. */
void *
comp__engine_linked_address(void);

/* The module comp_build opens (comp_engine.c's search); NULL when the engine is linked or
 * no candidate exists, with *why saying what was tried. Static storage. */
const char *
comp__engine_path(const char **why);

#ifdef __cplusplus
}
#endif

#endif /* COMP_ENGINE_H */
