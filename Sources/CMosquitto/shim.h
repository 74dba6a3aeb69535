#ifndef ZAPPER_CMOSQUITTO_SHIM_H
#define ZAPPER_CMOSQUITTO_SHIM_H
// libmosquitto (the Eclipse Mosquitto project's MQTT client): its plain functions,
// enums and integer macros import into Swift as they are.
#include <mosquitto.h>
#endif
