// The engine's floor for a cold check: the same fixture check as `webbridge check`, written directly
// against WebKitGTK's C API in C, with no Swift runtime, no Foundation and no validation. The bench
// times it from launch to exit next to `webbridge check`, so what is left of the cold check is ours.
//
// Usage: webbridge-raw-cold-check FIXTURE.html   (exit 0 pass, 1 check failed, 3 environment)
//        webbridge-raw-cold-check --start-only   (exit 0 at once: the cost of loading the engine's libraries)
//        webbridge-raw-cold-check --views N [--no-load] FIXTURE.html
//            the engine's memory per web view, for an upstream report: creates N views one after the other,
//            each related to one anchor view (as WebBridge's sessions are), loads the fixture in it (unless
//            --no-load), destroys it, and prints the resident memory after 50 views and after N, and how many
//            of the views were finalized.
#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

static pid_t xvfb = 0;
static GMainLoop *loop = NULL;
static const char *waiting_for = "the page's ready message";
static gboolean finished = FALSE, shown = FALSE;

// The check ends when the page has finished loading and has shown the sync value, in either order.
static void end_if_done(void) {
    if (finished && shown) g_main_loop_quit(loop);
}

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)view;
    (void)data;
    if (event != WEBKIT_LOAD_FINISHED) return;
    finished = TRUE;
    end_if_done();
}

static void stop_xvfb(void) {
    if (xvfb > 0) kill(xvfb, SIGTERM);
}

// Starts a private Xvfb exactly as WebBridge does (-displayfd, no TCP) and waits for its display number.
static int start_xvfb(void) {
    int fds[2];
    if (pipe(fds) != 0) return 0;
    pid_t parent = getpid();
    xvfb = fork();
    if (xvfb == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);
        dup2(fds[1], 3);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        dup2(devnull, 2);
        execlp("Xvfb", "Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-screen", "0", "1280x1024x24", "-terminate",
               (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    atexit(stop_xvfb);
    char number[32] = {0};
    size_t used = 0;
    while (used < sizeof number - 1 && !strchr(number, '\n')) {
        struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
        int ready = poll(&pfd, 1, 10000);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) {
            fprintf(stderr, "raw cold check: Xvfb did not report a display number within 10 s\n");
            return 0;
        }
        ssize_t count = read(fds[0], number + used, sizeof number - 1 - used);
        if (count <= 0) {
            fprintf(stderr, "raw cold check: Xvfb exited before reporting a display number\n");
            return 0;
        }
        used += (size_t)count;
    }
    close(fds[0]);
    number[strcspn(number, "\n")] = 0;
    char display[40];
    snprintf(display, sizeof display, ":%s", number);
    setenv("DISPLAY", display, 1);
    return 1;
}

// A display as WebBridge gets one (its own Xvfb when DISPLAY is unset), then GTK.
static int open_display(const char *who) {
    const char *display = getenv("DISPLAY");
    if ((!display || !*display) && !start_xvfb()) return 0;
    if (!gtk_init_check(NULL, NULL)) {
        fprintf(stderr, "%s: GTK could not open the display\n", who);
        return 0;
    }
    return 1;
}

static gboolean timed_out(gpointer data) {
    (void)data;
    fprintf(stderr, "raw cold check: timed out after 10 s waiting for %s\n", waiting_for);
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

static void read_back(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_evaluate_javascript_finish(WEBKIT_WEB_VIEW(view), result, &error);
    if (value) {
        char *text = jsc_value_to_string(value);
        gboolean ok = text && strcmp(text, "ok") == 0;
        g_free(text);
        g_object_unref(value);
        if (!ok) {
            fprintf(stderr, "raw cold check: the page did not show the sync value\n");
            g_main_loop_quit(loop);
            return;
        }
        shown = TRUE;
        waiting_for = "the page's load to finish";
        end_if_done();
    } else {
        fprintf(stderr, "raw cold check: reading the sync value back failed\n");
        g_clear_error(&error);
        g_main_loop_quit(loop);
    }
}

static void sync_sent(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_evaluate_javascript_finish(WEBKIT_WEB_VIEW(view), result, &error);
    if (!value) {
        fprintf(stderr, "raw cold check: the sync call failed\n");
        g_clear_error(&error);
        g_main_loop_quit(loop);
        return;
    }
    g_object_unref(value);
    waiting_for = "the sync value read back";
    webkit_web_view_evaluate_javascript(WEBKIT_WEB_VIEW(view), "document.body.dataset.received", -1, NULL, NULL, NULL,
                                        read_back, NULL);
}

// The same check as WebBridge's, without its validator: kind "ready" and version the number 1.
static void on_message(WebKitUserContentManager *manager, WebKitJavascriptResult *message, gpointer view) {
    (void)manager;
    static gboolean seen = FALSE;
    JSCValue *body = webkit_javascript_result_get_js_value(message);
    if (seen || !jsc_value_is_object(body)) return;
    JSCValue *kind = jsc_value_object_get_property(body, "kind");
    JSCValue *version = jsc_value_object_get_property(body, "version");
    char *kindText = jsc_value_is_string(kind) ? jsc_value_to_string(kind) : NULL;
    gboolean ready = kindText && strcmp(kindText, "ready") == 0 && jsc_value_is_number(version) &&
                     jsc_value_to_double(version) == 1;
    g_free(kindText);
    g_object_unref(kind);
    g_object_unref(version);
    if (!ready) return;
    seen = TRUE;
    waiting_for = "the sync call's completion";
    webkit_web_view_evaluate_javascript(WEBKIT_WEB_VIEW(view), "window.bridgeReceive({\"kind\":\"sync\",\"value\":\"ok\"})",
                                        -1, NULL, NULL, NULL, sync_sent, NULL);
}

static long resident_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    fclose(status);
    return kb;
}

static int finalized = 0;
static void count_finalized(gpointer data, GObject *object) {
    (void)data;
    (void)object;
    finalized++;
}

static gboolean loaded = FALSE;
static void on_view_loaded(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)view;
    (void)data;
    if (event == WEBKIT_LOAD_FINISHED) loaded = TRUE;
}

static gboolean deadline_passed = FALSE;
static gboolean on_deadline(gpointer data) {
    (void)data;
    deadline_passed = TRUE;
    return G_SOURCE_REMOVE;
}

// Iterates GLib until the current view has loaded, or 10 s have passed (then says what did not happen).
static int wait_loaded(int index) {
    deadline_passed = FALSE;
    guint deadline = g_timeout_add_seconds(10, on_deadline, NULL);
    while (!loaded && !deadline_passed) g_main_context_iteration(NULL, TRUE);
    if (!deadline_passed) g_source_remove(deadline);
    if (!loaded) fprintf(stderr, "raw views: view %d did not finish loading within 10 s\n", index);
    return loaded;
}

static int views(int count, gboolean load, const char *html) {
    if (!open_display("raw views")) return 3;
    WebKitWebContext *context = webkit_web_context_new_ephemeral();
    WebKitUserContentManager *anchorManager = webkit_user_content_manager_new();
    WebKitWebView *anchor = WEBKIT_WEB_VIEW(g_object_ref_sink(g_object_new(
        WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", anchorManager, NULL)));
    g_signal_connect(anchor, "load-changed", G_CALLBACK(on_view_loaded), NULL);
    webkit_web_view_load_html(anchor, "", "about:blank");
    if (!wait_loaded(0)) return 1;
    long after50 = -1;
    for (int index = 1; index <= count; index++) {
        WebKitUserContentManager *manager = webkit_user_content_manager_new();
        WebKitWebView *view = WEBKIT_WEB_VIEW(g_object_ref_sink(
            g_object_new(WEBKIT_TYPE_WEB_VIEW, "related-view", anchor, "user-content-manager", manager, NULL)));
        g_object_weak_ref(G_OBJECT(view), count_finalized, NULL);
        webkit_user_content_manager_register_script_message_handler(manager, "bridge");
        if (load) {
            loaded = FALSE;
            gulong signal = g_signal_connect(view, "load-changed", G_CALLBACK(on_view_loaded), NULL);
            webkit_web_view_load_html(view, html, "about:blank");
            if (!wait_loaded(index)) return 1;
            g_signal_handler_disconnect(view, signal);
        }
        webkit_user_content_manager_unregister_script_message_handler(manager, "bridge");
        gtk_widget_destroy(GTK_WIDGET(view));
        g_object_unref(view);
        g_object_unref(manager);
        // Let the engine finish the teardown it schedules before the next view.
        while (g_main_context_iteration(NULL, FALSE)) {}
        if (index == 50) after50 = resident_kb();
    }
    long afterAll = resident_kb();
    printf("views %d (%s): RSS after 50 %ld kB, after %d %ld kB, growth %.1f kB per view; finalized %d of %d\n", count,
           load ? "each loads the fixture" : "no load", after50, count, afterAll,
           count > 50 ? (double)(afterAll - after50) / (count - 50) : 0.0, finalized, count);
    return finalized == count ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "--views") == 0) {
        int count = atoi(argv[2]);
        if (count <= 50) {
            fprintf(stderr, "raw views: --views N: N must be a number above 50 (memory is read after the first 50)\n");
            return 2;
        }
        gboolean load = strcmp(argv[3], "--no-load") != 0;
        gchar *html = NULL;
        if (!g_file_get_contents(argv[argc - 1], &html, NULL, NULL)) {
            fprintf(stderr, "raw views: can't read the fixture\n");
            return 3;
        }
        return views(count, load, html);
    }
    if (argc == 2 && strcmp(argv[1], "--start-only") == 0) return 0;
    if (argc != 2) {
        fprintf(stderr, "usage: webbridge-raw-cold-check FIXTURE.html\n");
        return 2;
    }
    gchar *html = NULL;
    if (!g_file_get_contents(argv[1], &html, NULL, NULL)) {
        fprintf(stderr, "raw cold check: can't read the fixture\n");
        return 3;
    }
    if (!open_display("raw cold check")) return 3;
    WebKitWebContext *context = webkit_web_context_new_ephemeral();
    WebKitUserContentManager *manager = webkit_user_content_manager_new();
    GtkWidget *view = g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", context, "user-content-manager", manager, NULL);
    g_signal_connect(manager, "script-message-received::bridge", G_CALLBACK(on_message), view);
    g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
    webkit_user_content_manager_register_script_message_handler(manager, "bridge");
    loop = g_main_loop_new(NULL, FALSE);
    g_timeout_add_seconds(10, timed_out, NULL);
    webkit_web_view_load_html(WEBKIT_WEB_VIEW(view), html, NULL);
    g_main_loop_run(loop);
    int verdict = finished && shown ? 0 : 1;
    printf("%s\n", verdict == 0 ? "PASS raw cold check" : "FAIL raw cold check");
    return verdict;
}
#else
#include <stdio.h>
int main(void) {
    fprintf(stderr, "webbridge-raw-cold-check runs on Linux only (WebKitGTK)\n");
    return 3;
}
#endif
