/* SPDX-License-Identifier: Apache-2.0 */
/* REPORT/summary.sarif: SARIF 2.1.0 for code-scanning viewers (GitHub,
 * VS Code's SARIF viewer). One run; one rule per crash type; one result
 * per bucket, located at the top state frame that has a source line, with
 * the whole stack in result.stacks and the bucket id as a partial
 * fingerprint so that viewers track one bug across triages. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gb_version.h"
#include "triage_int.h"

/* A path as a URI reference: "file://" for absolute paths, and
 * percent-encoding for anything outside RFC 3986's unreserved set and
 * '/'. */
static void path_uri(const char *path, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t at = 0;
    if (cap < 8)
        return;
    if (path[0] == '/')
        at = (size_t)snprintf(out, cap, "file://");
    for (const unsigned char *p = (const unsigned char *)path; *p && at + 4 < cap; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p)) {
            out[at++] = (char)*p;
        } else {
            out[at++] = '%';
            out[at++] = hex[*p >> 4];
            out[at++] = hex[*p & 15];
        }
    }
    out[at] = '\0';
}

static json_object *text(const char *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "text", gb_tj_jstr(s));
    return o;
}

/* A physicalLocation at file:line (line 0: the file alone). */
static json_object *phys(const char *file, unsigned line)
{
    char uri[PATH_MAX * 3];
    path_uri(file, uri, sizeof uri);
    json_object *art = json_object_new_object();
    json_object_object_add(art, "uri", json_object_new_string(uri));
    json_object *p = json_object_new_object();
    json_object_object_add(p, "artifactLocation", art);
    if (line > 0) {
        json_object *region = json_object_new_object();
        json_object_object_add(region, "startLine", json_object_new_int64(line));
        json_object_object_add(p, "region", region);
    }
    return p;
}

static json_object *location(const gb_frame_t *f, const char *fallback)
{
    json_object *loc = json_object_new_object();
    if (f && f->file[0])
        json_object_object_add(loc, "physicalLocation", phys(f->file, f->line));
    else if (fallback)
        json_object_object_add(loc, "physicalLocation", phys(fallback, 0));
    if (f && f->func[0]) {
        json_object *ll = json_object_new_object();
        json_object_object_add(ll, "fullyQualifiedName", gb_tj_jstr(f->func));
        json_object_object_add(ll, "kind", json_object_new_string("function"));
        json_object *a = json_object_new_array();
        json_object_array_add(a, ll);
        json_object_object_add(loc, "logicalLocations", a);
    }
    return loc;
}

static json_object *stack(const gb_bucket_t *b)
{
    json_object *frames = json_object_new_array();
    for (size_t i = 0; i < b->nframes; i++) {
        const gb_frame_t *f = &b->frames[i];
        json_object *sf = json_object_new_object();
        json_object_object_add(sf, "location", location(f, NULL));
        if (f->module[0])
            json_object_object_add(sf, "module", gb_tj_jstr(f->module));
        json_object_array_add(frames, sf);
    }
    json_object *s = json_object_new_object();
    json_object_object_add(s, "message", text("the crashing run's stack"));
    json_object_object_add(s, "frames", frames);
    json_object *a = json_object_new_array();
    json_object_array_add(a, s);
    return a;
}

/* The rule index of `type`, adding the rule when it is new. */
static size_t rule_of(json_object *rules, const char *type)
{
    size_t n = json_object_array_length(rules);
    for (size_t i = 0; i < n; i++)
        if (strcmp(gb_tj_str(json_object_array_get_idx(rules, i), "id", ""), type) == 0)
            return i;
    json_object *r = json_object_new_object();
    json_object_object_add(r, "id", gb_tj_jstr(type));
    char desc[256];
    snprintf(desc, sizeof desc, "Crash: %s", type);
    json_object_object_add(r, "shortDescription", text(desc));
    json_object_object_add(r, "fullDescription",
                           text("A crash found by fuzzing and confirmed by glassbox triage on a "
                                "sanitizer build; see the bucket's report.txt and repro.sh."));
    json_object *cfg = json_object_new_object();
    json_object_object_add(cfg, "level", json_object_new_string("error"));
    json_object_object_add(r, "defaultConfiguration", cfg);
    json_object_array_add(rules, r);
    return n;
}

static json_object *result(const gb_report_ctx_t *c, const gb_bucket_t *b, json_object *rules)
{
    json_object *o = json_object_new_object();
    size_t rule = rule_of(rules, b->type);
    char line[700], msg[1024];
    gb_crash_state_line(b->state, line, sizeof line);
    snprintf(msg, sizeof msg, "%s in %s (%zu input%s%s; REPORT/%s)", b->type,
             b->state[0] ? line : "an unknown place", b->ninputs, b->ninputs == 1 ? "" : "s",
             b->flaky ? ", flaky" : "", b->id);
    json_object_object_add(o, "ruleId", gb_tj_jstr(b->type));
    json_object_object_add(o, "ruleIndex", json_object_new_int64((int64_t)rule));
    json_object_object_add(o, "level", json_object_new_string(b->flaky ? "warning" : "error"));
    json_object_object_add(o, "message", text(msg));
    long k = gb_tj_top_located_frame(b);
    json_object *locs = json_object_new_array();
    json_object_array_add(locs, location(k >= 0 ? &b->frames[k] : NULL, c->bin));
    json_object_object_add(o, "locations", locs);
    json_object *fp = json_object_new_object();
    json_object_object_add(fp, "glassboxCrashBucket/v1", gb_tj_jstr(b->id));
    json_object_object_add(o, "partialFingerprints", fp);
    if (b->nframes)
        json_object_object_add(o, "stacks", stack(b));
    json_object *props = json_object_new_object();
    json_object_object_add(props, "bucket", gb_tj_jstr(b->id));
    json_object_object_add(props, "count", json_object_new_int64((int64_t)b->ninputs));
    json_object_object_add(props, "flaky", json_object_new_boolean(b->flaky));
    json_object_object_add(o, "properties", props);
    return o;
}

int gb_report_sarif(const gb_report_ctx_t *c, const gb_triage_result_t *res, gb_err_t *e)
{
    json_object *rules = json_object_new_array(), *results = json_object_new_array();
    for (size_t i = 0; i < res->nbuckets; i++)
        json_object_array_add(results, result(c, &res->buckets[i], rules));
    json_object *driver = json_object_new_object();
    json_object_object_add(driver, "name", json_object_new_string("Glassbox"));
    json_object_object_add(driver, "fullName", json_object_new_string("Glassbox " GB_VERSION_FULL));
    json_object_object_add(driver, "version", json_object_new_string(GB_VERSION_FULL));
    json_object_object_add(driver, "semanticVersion", json_object_new_string(GB_VERSION));
    json_object_object_add(driver, "rules", rules);
    json_object *tool = json_object_new_object();
    json_object_object_add(tool, "driver", driver);
    json_object *inv = json_object_new_object();
    json_object_object_add(inv, "executionSuccessful", json_object_new_boolean(1));
    json_object *invs = json_object_new_array();
    json_object_array_add(invs, inv);
    json_object *run = json_object_new_object();
    json_object_object_add(run, "tool", tool);
    json_object_object_add(run, "invocations", invs);
    json_object_object_add(run, "results", results);
    json_object *runs = json_object_new_array();
    json_object_array_add(runs, run);
    json_object *doc = json_object_new_object();
    json_object_object_add(doc, "version", json_object_new_string("2.1.0"));
    json_object_object_add(doc, "runs", runs);
    int rc = gb_tj_write_json_at(c->dirfd, "summary.sarif", c->tmpfd, doc, e);
    json_object_put(doc);
    return rc;
}
