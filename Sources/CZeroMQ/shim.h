#ifndef INTENTD_CZEROMQ_SHIM_H
#define INTENTD_CZEROMQ_SHIM_H
#include <zmq.h>
#include <errno.h>
#include <sys/eventfd.h>
#endif
