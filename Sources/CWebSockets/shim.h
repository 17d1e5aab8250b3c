// Re-exports the libwebsockets macros Swift cannot import, as CWebSockets_-prefixed functions.
#ifndef CWEBSOCKETS_SHIM_H
#define CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// `LWS_PRE`: the headroom lws needs before every `lws_write` payload for the frame header.
static inline size_t CWebSockets_LWS_PRE(void) { return LWS_PRE; }

/// Options defined as an OR of two bits, which Swift does not import (each also sets
/// `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT`).
static const uint64_t CWebSockets_LWS_SERVER_OPTION_ALLOW_NON_SSL_ON_SSL_PORT = LWS_SERVER_OPTION_ALLOW_NON_SSL_ON_SSL_PORT;
static const uint64_t CWebSockets_LWS_SERVER_OPTION_REDIRECT_HTTP_TO_HTTPS = LWS_SERVER_OPTION_REDIRECT_HTTP_TO_HTTPS;

/// The `lwsl_*` loggers are variadic macros: these log a preformatted message at one level.
static inline void CWebSockets_lwsl_err(const char *message) { lwsl_err("%s\n", message); }
static inline void CWebSockets_lwsl_warn(const char *message) { lwsl_warn("%s\n", message); }
static inline void CWebSockets_lwsl_notice(const char *message) { lwsl_notice("%s\n", message); }
static inline void CWebSockets_lwsl_info(const char *message) { lwsl_info("%s\n", message); }

/// `lws_get_protocol(wsi)->user`, for callbacks that reach their owner without capturing.
static inline void *CWebSockets_protocol_user(struct lws *wsi) {
    const struct lws_protocols *protocol = lws_get_protocol(wsi);
    return protocol ? protocol->user : NULL;
}

#endif
