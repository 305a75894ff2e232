#ifndef CENGINEMAINTHREAD_H
#define CENGINEMAINTHREAD_H

/* An async `main` (Swift Testing's runner, a top level that awaits) ends by draining the main queue. On Linux the
   runtime does that with dispatch_main(), which parks the main thread and drains the main queue (the main actor)
   on whichever worker thread is free: WebKitGTK, bound to the thread that started it, aborts when a later main-actor
   job touches it from another. Linked with the engine, this hook hands the main thread to the engine's loop
   instead, which drains the main queue on the main thread, as CFRunLoopRun does on Apple platforms. A process
   whose main is synchronous (XCTest's, the CLI's) never drains: nothing changes there.

   Installed by a constructor when the process starts: there is nothing to call. */

#endif
