/* SPDX-License-Identifier: Apache-2.0 */
/* Expat harness: the input is an XML document, parsed in one XML_Parse call
 * by a namespace-aware parser with parameter entities parsed unless the
 * document is standalone, and handlers for elements, text, CDATA, comments,
 * processing instructions, the XML declaration, the doctype, entity and
 * element declarations. External entities are not loaded.
 *
 * The hash salt is a constant: without XML_SetHashSalt Expat salts its
 * hash tables from getrandom, and a run would not be repeatable. A salt of
 * 0 means "none given" to Expat, hence a non-zero one. */
#include <stddef.h>
#include <stdint.h>

#include "expat.h"

#define GB_EXPAT_SALT 0x9e3779b9UL

static volatile unsigned long gb_expat_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The handlers' user data: the parser (to free content models) and the
 * sum every handler folds its event code into. */
typedef struct {
    XML_Parser parser;
    unsigned long sum;
} gb_expat_state_t;

static void gb_event(void *user, unsigned code)
{
    gb_expat_state_t *st = user;
    st->sum = st->sum * 33u + code;
}

static void gb_start(void *u, const XML_Char *name, const XML_Char **atts)
{
    unsigned n = 0;
    while (atts[n])
        n++;
    gb_event(u, 1u + (unsigned)name[0] + (n << 8));
}
static void gb_end(void *u, const XML_Char *name) { gb_event(u, 2u + (unsigned)name[0]); }
static void gb_text(void *u, const XML_Char *s, int len) { gb_event(u, 3u + (unsigned)len + (unsigned)s[0]); }
static void gb_pi(void *u, const XML_Char *target, const XML_Char *d)
{
    gb_event(u, 4u + (unsigned)target[0] + (unsigned)d[0]);
}
static void gb_comment(void *u, const XML_Char *d) { gb_event(u, 5u + (unsigned)d[0]); }
static void gb_cdata_start(void *u) { gb_event(u, 6u); }
static void gb_cdata_end(void *u) { gb_event(u, 7u); }
static void gb_xmldecl(void *u, const XML_Char *version, const XML_Char *encoding, int standalone)
{
    gb_event(u, 8u + (version != NULL) + ((encoding != NULL) << 1) + ((unsigned)standalone << 2));
}
static void gb_doctype(void *u, const XML_Char *name, const XML_Char *sysid, const XML_Char *pubid,
                       int internal)
{
    gb_event(u, 9u + (unsigned)name[0] + (sysid != NULL) + ((pubid != NULL) << 1) +
                    ((unsigned)internal << 2));
}
static void gb_entity(void *u, const XML_Char *name, int is_param, const XML_Char *value,
                      int value_len, const XML_Char *base, const XML_Char *sysid,
                      const XML_Char *pubid, const XML_Char *notation)
{
    (void)value;
    (void)base;
    gb_event(u, 10u + (unsigned)name[0] + (unsigned)is_param + (unsigned)value_len +
                    (sysid != NULL) + (pubid != NULL) + (notation != NULL));
}
static void gb_element(void *u, const XML_Char *name, XML_Content *model)
{
    gb_event(u, 11u + (unsigned)name[0] + (unsigned)model->type);
    XML_FreeContentModel(((gb_expat_state_t *)u)->parser, model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (size_t)INT32_MAX)
        return 0;
    XML_Parser p = XML_ParserCreateNS(NULL, '|');
    if (!p)
        return 0;
    gb_expat_state_t st = {p, 0};
    XML_SetHashSalt(p, GB_EXPAT_SALT);
    XML_SetUserData(p, &st);
    XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE);
    XML_SetElementHandler(p, gb_start, gb_end);
    XML_SetCharacterDataHandler(p, gb_text);
    XML_SetProcessingInstructionHandler(p, gb_pi);
    XML_SetCommentHandler(p, gb_comment);
    XML_SetCdataSectionHandler(p, gb_cdata_start, gb_cdata_end);
    XML_SetXmlDeclHandler(p, gb_xmldecl);
    XML_SetStartDoctypeDeclHandler(p, gb_doctype);
    XML_SetEntityDeclHandler(p, gb_entity);
    XML_SetElementDeclHandler(p, gb_element);
    if (XML_Parse(p, (const char *)data, (int)size, 1) == XML_STATUS_ERROR)
        st.sum ^= (unsigned long)XML_GetErrorCode(p) << 24 ^
                  (unsigned long)XML_GetCurrentLineNumber(p);
    gb_expat_sink = st.sum;
    XML_ParserFree(p);
    return 0;
}
