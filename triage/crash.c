/* SPDX-License-Identifier: Apache-2.0 */
/* (to be written) */
#include "triage.h"
