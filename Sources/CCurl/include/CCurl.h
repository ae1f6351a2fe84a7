// libcurl, reached at run time: the program links no library of its own for it.
//
// On Linux, Foundation's URLSession drives libcurl through a dispatch source that stays armed for
// writing once a request is sent, so a process waiting on a slow server spins a core (see
// Sources/NewsCore/HTTP/CurlHTTPClient.swift). `news` calls the same libcurl directly instead,
// through this small shim: libcurl's setters are variadic, which Swift cannot call, and its
// headers are not installed on every machine, so the shim declares the few calls it needs and
// finds them with dlopen in the library Foundation itself loads.
#ifndef NEWS_CCURL_H
#define NEWS_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// Loads libcurl and initialises it once; 1 when every call below is usable, 0 otherwise.
int news_curl_load(void);

/// A handle reset to libcurl's defaults: one given back before, or a new one; NULL on failure.
void *news_curl_easy_take(void);
/// Gives back a handle that is in no multi handle: reset and kept for `news_curl_easy_take`
/// (a few dozen at most), or freed.
void news_curl_easy_give(void *easy);
int news_curl_setopt_long(void *easy, int option, long value);
int news_curl_setopt_pointer(void *easy, int option, const void *value);
/// Sets a callback of libcurl's write or header shape: (data, size, count, user data) -> bytes.
int news_curl_setopt_callback(
    void *easy, int option, size_t (*callback)(char *, size_t, size_t, void *));
int news_curl_getinfo_long(void *easy, int info, long *value);
const char *news_curl_strerror(int code);

void *news_curl_slist_append(void *list, const char *line);
void news_curl_slist_free_all(void *list);

void *news_curl_multi_init(void);
int news_curl_multi_add_handle(void *multi, void *easy);
int news_curl_multi_remove_handle(void *multi, void *easy);
int news_curl_multi_perform(void *multi, int *running);
/// Waits up to `timeout_ms` for activity on the transfers' sockets or for a wake-up.
int news_curl_multi_poll(void *multi, int timeout_ms);
int news_curl_multi_wakeup(void *multi);
/// The next finished transfer: its handle, with its result in `result`; NULL when none.
void *news_curl_multi_next_done(void *multi, int *result);

/// How the thread driving `multi` waits: on Linux with epoll, libcurl told which sockets to
/// watch and when its timers are due (curl_multi_socket_action), so a wake-up touches only the
/// transfers that are ready; elsewhere curl_multi_poll then curl_multi_perform. NULL when out of
/// memory.
void *news_curl_loop_new(void *multi);
/// 1 when the loop waits on epoll (socket_action), 0 when it polls every transfer.
int news_curl_loop_uses_events(void *loop);
/// Wakes the loop's thread from its wait (a transfer added or cancelled).
void news_curl_loop_wake(void *loop);
/// Waits up to `longest_ms` (less when a libcurl timer is due sooner) for ready sockets or a
/// wake-up, and lets libcurl act on what is ready; finished transfers are then in
/// news_curl_multi_next_done. Call from the loop's thread only, after adding or removing
/// handles.
void news_curl_loop_step(void *loop, int longest_ms);

#endif
