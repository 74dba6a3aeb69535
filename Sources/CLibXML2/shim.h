#ifndef ZAPPER_CLIBXML2_SHIM_H
#define ZAPPER_CLIBXML2_SHIM_H

/* Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's
   headers, which clash with the copy of ICU inside Swift's Foundation. Nothing
   here touches an encoding handler's insides (only pointers to them pass), so
   the ICU part of that struct is left out. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

/* An external entity loader that loads nothing: a guide may declare
   <!ENTITY x SYSTEM "file:///etc/passwd">, and its text must never become a
   programme's title. libxml2 2.9 has no per-parser switch for this. */
static xmlParserInputPtr zapper_xml_no_external_entity(const char *url, const char *id,
                                                        xmlParserCtxtPtr context) {
    (void)url; (void)id; (void)context;
    return NULL;
}

static inline void zapper_xml_forbid_external_entities(void) {
    xmlSetExternalEntityLoader(zapper_xml_no_external_entity);
}

#endif
