#ifndef ZAPPER_CQRENCODE_SHIM_H
#define ZAPPER_CQRENCODE_SHIM_H

/* libqrencode: QR codes for the panel's Phone tab (a link a phone's camera opens). */
#include <qrencode.h>

#endif
