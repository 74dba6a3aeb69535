#ifndef ZAPPER_CMOSQUITTO_SHIM_H
#define ZAPPER_CMOSQUITTO_SHIM_H
// libmosquitto (the Eclipse Mosquitto project's MQTT client): its plain functions,
// enums and integer macros import into Swift as they are; mqtt_protocol.h holds MQTT v5's
// property identifiers, reason codes and subscription options.
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
