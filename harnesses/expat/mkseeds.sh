#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Seeds for the Expat harness: small XML documents, one per construct (XML
# declaration, namespaces, attributes, DTD with entities, element and
# attribute declarations, CDATA, comments, PIs, character references, a
# Latin-1 encoding and UTF-16 with a BOM). Usage: mkseeds.sh DIR
set -euo pipefail
d=$1/expat_parse
mkdir -p "$d"
cat >"$d/simple.xml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<doc lang="en"><title>Glassbox</title><p id="1">text &amp; more &#65;&#x42;</p></doc>
X
cat >"$d/namespaces.xml" <<'X'
<r xmlns="urn:a" xmlns:b="urn:b"><b:x b:att="v"/><y xmlns="">plain</y></r>
X
cat >"$d/dtd.xml" <<'X'
<?xml version="1.0" standalone="no"?>
<!DOCTYPE note [
  <!ELEMENT note (to,from?,body*)>
  <!ELEMENT to (#PCDATA)>
  <!ATTLIST note kind CDATA #IMPLIED pri (low|high) "low">
  <!ENTITY who "world">
  <!ENTITY % p "<!ENTITY q 'param'>">
  %p;
  <!NOTATION gif SYSTEM "image/gif">
]>
<note><to>&who; &q;</to><body/></note>
X
cat >"$d/misc.xml" <<'X'
<?pi target data?><!-- a comment --><a><![CDATA[<not> & markup]]><?inner pi?><!--c--></a>
X
printf '<?xml version="1.0" encoding="ISO-8859-1"?><t>caf\351</t>' >"$d/latin1.xml"
printf '\377\376<\000a\000/\000>\000' >"$d/utf16le.xml"
