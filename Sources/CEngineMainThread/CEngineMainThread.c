#include "CEngineMainThread.h"

/* Linux only: on Apple platforms the runtime drains the main queue with CFRunLoopRun, on the main thread. */
#ifdef __linux__

/* The runtime's hook (libswift_Concurrency): called, with the runtime's own drain, in place of it. */
typedef __attribute__((swiftcall)) void (*cemt_drain)(void);
typedef __attribute__((swiftcall)) void (*cemt_drain_override)(cemt_drain);
extern __attribute__((swiftcall)) void (*swift_task_asyncMainDrainQueue_hook)(cemt_drain, cemt_drain_override);

/* WebKitGTKHost's main loop (Swift, @_cdecl); weak, so this file links without it. Never returns. */
extern void webbridge_run_engine_main_loop(void) __attribute__((weak));

__attribute__((swiftcall)) static void drain_on_main_thread(cemt_drain original, cemt_drain_override override) {
    (void)override;
    if (webbridge_run_engine_main_loop != 0) {
        webbridge_run_engine_main_loop();
    }
    original();
}

__attribute__((constructor)) static void install(void) {
    if (swift_task_asyncMainDrainQueue_hook == 0) swift_task_asyncMainDrainQueue_hook = drain_on_main_thread;
}

#endif
