#ifndef CWEBKITGTK_SHIM_H
#define CWEBKITGTK_SHIM_H
#include <webkit2/webkit2.h>
#include <gtk/gtk.h>
#include <glib.h>
#endif
