#ifndef INTENTD_CZEROMQ_SHIM_H
#define INTENTD_CZEROMQ_SHIM_H
#include <zmq.h>
#include <errno.h>
#include <sys/eventfd.h>
// SHA-256 for key fingerprints (OpenSSL's libcrypto).
#include <openssl/sha.h>
// malloc_trim, to give memory freed after a flood back to the system.
#include <malloc.h>
#endif
