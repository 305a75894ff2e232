// Renders an HTML file in WebKitGTK and saves what the engine drew as a PNG (the report's screenshot).
// Usage: report-screenshot REPORT.html OUT.png [WIDTH]; needs a display (report-screenshot.sh starts Xvfb).
#include <stdio.h>
#include <stdlib.h>
#include <cairo.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

static const char *output;
static int status = 1;

static gboolean give_up(gpointer data) {
    (void)data;
    fprintf(stderr, "report-screenshot: the page did not finish loading within 30 s\n");
    gtk_main_quit();
    return G_SOURCE_REMOVE;
}

static void snapshot_done(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    GError *error = NULL;
    cairo_surface_t *surface = webkit_web_view_get_snapshot_finish(WEBKIT_WEB_VIEW(view), result, &error);
    if (!surface) {
        fprintf(stderr, "report-screenshot: the engine took no snapshot: %s\n", error ? error->message : "?");
        g_clear_error(&error);
    } else if (cairo_surface_write_to_png(surface, output) != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "report-screenshot: can't write %s\n", output);
        cairo_surface_destroy(surface);
    } else {
        status = 0;
        cairo_surface_destroy(surface);
    }
    gtk_main_quit();
}

static void load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)data;
    if (event != WEBKIT_LOAD_FINISHED) return;
    webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT, WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL,
                                 snapshot_done, NULL);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: report-screenshot REPORT.html OUT.png [WIDTH]\n");
        return 2;
    }
    output = argv[2];
    int width = argc > 3 ? atoi(argv[3]) : 1000;
    gchar *html = NULL;
    GError *error = NULL;
    if (!g_file_get_contents(argv[1], &html, NULL, &error)) {
        fprintf(stderr, "report-screenshot: can't read %s: %s\n", argv[1], error->message);
        return 2;
    }
    gtk_init(&argc, &argv);
    // An offscreen window: the engine lays out and paints at this width, nothing is shown on screen.
    GtkWidget *window = gtk_offscreen_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), width, 600);
    WebKitWebView *view = WEBKIT_WEB_VIEW(webkit_web_view_new());
    gtk_widget_set_size_request(GTK_WIDGET(view), width, 600);
    gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
    gtk_widget_show_all(window);
    g_signal_connect(view, "load-changed", G_CALLBACK(load_changed), NULL);
    webkit_web_view_load_html(view, html, NULL);
    g_timeout_add_seconds(30, give_up, NULL);
    gtk_main();
    g_free(html);
    return status;
}
