/* SPDX-License-Identifier: Apache-2.0 */
/* Private to corpus/: the campaign's directories as descriptors, opened
 * once by gb_campaign_open without following a symlink below OUT, for the
 * files stats.c and journal.c write there. */
#ifndef GB_CORPUS_INT_H
#define GB_CORPUS_INT_H

#include "corpus.h"

int gb_campaign_dirfd(const gb_campaign_t *c); /* OUT/NAME */
int gb_campaign_tmpfd(const gb_campaign_t *c); /* OUT/NAME/.tmp */

#endif
