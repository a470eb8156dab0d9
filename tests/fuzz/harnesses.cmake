# SPDX-License-Identifier: Apache-2.0
# The harnesses of tests/fuzz, each with the module library it fuzzes (the
# sanitized build of that library and what it links). Read by both the
# outer build (one CTest test per harness) and the sanitized build.
set(GB_FUZZ_HARNESSES trace cfg clauses answers journal synced queue_name stats sanrep smt2)
set(GB_FUZZ_LIB_trace gb_symbolic)
set(GB_FUZZ_LIB_cfg gb_generational)
set(GB_FUZZ_LIB_clauses gb_symbolic)
set(GB_FUZZ_LIB_answers gb_symbolic)
set(GB_FUZZ_LIB_journal gb_corpus)
set(GB_FUZZ_LIB_synced gb_fuzz_bridge)
set(GB_FUZZ_LIB_queue_name gb_corpus)
set(GB_FUZZ_LIB_stats gb_corpus)
set(GB_FUZZ_LIB_sanrep gb_triage)
set(GB_FUZZ_LIB_smt2 gb_symbolic)
