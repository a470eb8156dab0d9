/* SPDX-License-Identifier: Apache-2.0 */
/* The sanitizers' defaults for glassbox build's NAME.asan (the replay
 * build, linked with this object last and --allow-multiple-definition):
 * an abort() prints its stack like any other crash, and a UBSan report
 * carries one. ASAN_OPTIONS and UBSAN_OPTIONS still override them. A
 * harness that defines its own comes first on the link line, so its
 * definitions win (tests/e2e/hooks.sh); without one these beat the
 * sanitizer runtime's weak empty defaults. */
__attribute__((visibility("default"))) const char *__asan_default_options(void);
__attribute__((visibility("default"))) const char *__asan_default_options(void)
{
    return "handle_abort=1";
}
__attribute__((visibility("default"))) const char *__ubsan_default_options(void);
__attribute__((visibility("default"))) const char *__ubsan_default_options(void)
{
    return "print_stacktrace=1";
}
