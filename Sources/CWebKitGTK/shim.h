#ifndef CWEBKITGTK_SHIM_H
#define CWEBKITGTK_SHIM_H
#include <webkit2/webkit2.h>
#include <gtk/gtk.h>
#include <glib.h>
#include <glib-unix.h>
#include <poll.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <sys/syscall.h>

/* Helpers for what Swift cannot import: GObject macros, variadic constructors, typed signal callbacks. */

/* Creates a web view that shares the web process of `related` (may be NULL) and uses `manager`. */
static inline WebKitWebView *cwk_web_view_new(WebKitWebView *related, WebKitUserContentManager *manager,
                                              WebKitWebContext *context) {
    const char *names[3];
    GValue values[3] = {G_VALUE_INIT, G_VALUE_INIT, G_VALUE_INIT};
    guint n = 0;
    if (related) {
        names[n] = "related-view";
        g_value_init(&values[n], WEBKIT_TYPE_WEB_VIEW);
        g_value_set_object(&values[n], related);
        n++;
    } else if (context) {
        names[n] = "web-context";
        g_value_init(&values[n], WEBKIT_TYPE_WEB_CONTEXT);
        g_value_set_object(&values[n], context);
        n++;
    }
    names[n] = "user-content-manager";
    g_value_init(&values[n], WEBKIT_TYPE_USER_CONTENT_MANAGER);
    g_value_set_object(&values[n], manager);
    n++;
    GObject *object = g_object_new_with_properties(WEBKIT_TYPE_WEB_VIEW, n, names, values);
    for (guint i = 0; i < n; i++) g_value_unset(&values[i]);
    g_object_ref_sink(object);
    return WEBKIT_WEB_VIEW(object);
}

typedef void (*cwk_load_changed_cb)(WebKitWebView *, WebKitLoadEvent, gpointer);
typedef gboolean (*cwk_load_failed_cb)(WebKitWebView *, WebKitLoadEvent, gchar *, GError *, gpointer);
typedef void (*cwk_terminated_cb)(WebKitWebView *, WebKitWebProcessTerminationReason, gpointer);
typedef gboolean (*cwk_decide_policy_cb)(WebKitWebView *, WebKitPolicyDecision *, WebKitPolicyDecisionType, gpointer);
typedef gboolean (*cwk_script_dialog_cb)(WebKitWebView *, WebKitScriptDialog *, gpointer);
typedef void (*cwk_script_message_cb)(WebKitUserContentManager *, WebKitJavascriptResult *, gpointer);
typedef gboolean (*cwk_script_message_reply_cb)(WebKitUserContentManager *, JSCValue *, WebKitScriptMessageReply *, gpointer);

static inline gulong cwk_connect(gpointer instance, const char *signal, GCallback cb, gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, cb, data, destroy, (GConnectFlags)0);
}
static inline gulong cwk_connect_load_changed(WebKitWebView *v, cwk_load_changed_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(v, "load-changed", G_CALLBACK(cb), d, n);
}
static inline gulong cwk_connect_load_failed(WebKitWebView *v, cwk_load_failed_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(v, "load-failed", G_CALLBACK(cb), d, n);
}
static inline gulong cwk_connect_terminated(WebKitWebView *v, cwk_terminated_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(v, "web-process-terminated", G_CALLBACK(cb), d, n);
}
static inline gulong cwk_connect_decide_policy(WebKitWebView *v, cwk_decide_policy_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(v, "decide-policy", G_CALLBACK(cb), d, n);
}
/* Answers an HTTP authentication challenge as WKWebView does when no navigation delegate handles it: without
   credentials, so the 401 response loads at once (WebKitGTK's stock handler would wait for a user). */
static gboolean cwk_authenticate_without_credentials(WebKitWebView *v, WebKitAuthenticationRequest *r, gpointer d) {
    (void)v; (void)d;
    webkit_authentication_request_authenticate(r, NULL);
    return TRUE;
}
static inline gulong cwk_connect_authenticate_without_credentials(WebKitWebView *v) {
    return g_signal_connect(v, "authenticate", G_CALLBACK(cwk_authenticate_without_credentials), NULL);
}
static inline gulong cwk_connect_script_dialog(WebKitWebView *v, cwk_script_dialog_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(v, "script-dialog", G_CALLBACK(cb), d, n);
}
static inline gulong cwk_connect_script_message(WebKitUserContentManager *m, const char *detailed, cwk_script_message_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(m, detailed, G_CALLBACK(cb), d, n);
}
static inline gulong cwk_connect_script_message_reply(WebKitUserContentManager *m, const char *detailed, cwk_script_message_reply_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(m, detailed, G_CALLBACK(cb), d, n);
}

/* A web context whose data manager keeps its data in `folder` (not ephemeral: WebKit tells a web process extension
   of console messages only in a session that is not ephemeral). */
static inline WebKitWebContext *cwk_web_context_new_in(const char *folder) {
    WebKitWebsiteDataManager *manager = webkit_website_data_manager_new(
        "base-data-directory", folder, "base-cache-directory", folder, NULL);
    WebKitWebContext *context = webkit_web_context_new_with_website_data_manager(manager);
    g_object_unref(manager);
    return context;
}

/* A user message from the view's web process extension (Sources/WebBridgeWebExtension): TRUE when handled. */
typedef gboolean (*cwk_user_message_cb)(WebKitWebView *, WebKitUserMessage *, gpointer);
static inline gulong cwk_connect_user_message(WebKitWebView *v, cwk_user_message_cb cb, gpointer d, GClosureNotify n) {
    return cwk_connect(v, "user-message-received", G_CALLBACK(cb), d, n);
}

static inline GObject *cwk_object(gpointer p) { return G_OBJECT(p); }
static inline GtkWidget *cwk_widget(gpointer p) { return GTK_WIDGET(p); }
static inline WebKitResponsePolicyDecision *cwk_response_decision(WebKitPolicyDecision *d) {
    return WEBKIT_RESPONSE_POLICY_DECISION(d);
}

/* Calls `fn(name, value, data)` for each HTTP header of a response. */
typedef void (*cwk_header_cb)(const char *, const char *, gpointer);
static inline void cwk_response_headers(WebKitURIResponse *response, cwk_header_cb cb, gpointer data) {
    SoupMessageHeaders *headers = webkit_uri_response_get_http_headers(response);
    if (!headers) return;
    SoupMessageHeadersIter iter;
    const char *name, *value;
    soup_message_headers_iter_init(&iter, headers);
    while (soup_message_headers_iter_next(&iter, &name, &value)) cb(name, value, data);
}

static inline WebKitNavigationPolicyDecision *cwk_navigation_decision(WebKitPolicyDecision *d) {
    return WEBKIT_NAVIGATION_POLICY_DECISION(d);
}

static inline GQuark cwk_javascript_error_quark(void) { return WEBKIT_JAVASCRIPT_ERROR; }
static inline GQuark cwk_network_error_quark(void) { return WEBKIT_NETWORK_ERROR; }
static inline GQuark cwk_policy_error_quark(void) { return WEBKIT_POLICY_ERROR; }
static inline GQuark cwk_tls_error_quark(void) { return G_TLS_ERROR; }
static inline GQuark cwk_io_error_quark(void) { return G_IO_ERROR; }
static inline GQuark cwk_resolver_error_quark(void) { return G_RESOLVER_ERROR; }


/* A descriptor that becomes readable when process `pid` exits (pidfd_open), or -1. */
static inline int cwk_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/* Starts `path` with `argv`, its fd 3 being `fd`, stdin/stdout/stderr on /dev/null, and SIGTERM when the
   forking thread dies, so a crashed test run does not leave the display server behind. The child leads a
   session (and so a process group) of its own, so a wrapper script and whatever it forks can be stopped together.
   Returns the child pid, or -1. Only async-signal-safe calls run in the child. */
static inline pid_t cwk_spawn_display_server(const char *path, char *const argv[], int fd) {
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    pid_t parent = getpid();
    pid_t child = fork();
    if (child != 0) {
        if (devnull >= 0) close(devnull);
        return child;
    }
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(127);
    /* A session of its own (setsid also makes it its group's leader, which a setpgid first would forbid): a
       terminal's Ctrl-C (SIGINT to the foreground process group) or a CI runner's SIGTERM to the job's group stops
       webbridge, which reports and then stops the server's group, never the server first. */
    setsid();
    if (fd != 3) { dup2(fd, 3); } else { fcntl(3, F_SETFD, 0); }
    /* Nothing of the terminal: a closed terminal is not its business, and it holds no descriptor of it. */
    if (devnull >= 0) { dup2(devnull, 0); dup2(devnull, 1); dup2(devnull, 2); }
    execv(path, argv);
    _exit(127);
}

/* Whether the calling thread is the process's main thread (its thread id is the process id). */
static inline int cwk_is_main_thread(void) { return getpid() == (pid_t)syscall(SYS_gettid); }

/* Names the calling thread as `ps` and /proc show it (at most 15 bytes are kept). */
static inline void cwk_name_this_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

/* libdispatch's hooks for a foreign loop on the main thread, the pair Foundation's RunLoop is built on: an
   eventfd signalled when the main queue has work, and the call that drains the queue on the calling thread. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

#endif
