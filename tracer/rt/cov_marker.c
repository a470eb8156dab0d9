/* SPDX-License-Identifier: Apache-2.0 */
/* Linked into every --mode=cov program: lets fuzz-bridge tell a Glassbox
 * coverage build (block ids shared with the trace build) from a binary
 * instrumented some other way. */
__attribute__((used, visibility("default"))) const char __gb_cov_marker[] =
    "GLASSBOX_COV_RUNTIME_V1";
