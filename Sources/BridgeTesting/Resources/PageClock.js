// The page's clock in a stressed session: timers and the time the page reads run on virtual time that only the
// check advances, so a replay re-creates the order of the page's timers and native's actions on any machine.
// Injected at document start, main frame only, as `(PAGE_CLOCK)(late, "handler name")`.
//
// - setTimeout, setInterval, requestAnimationFrame and their clear/cancel functions keep their timers in this
//   clock; Date.now, `new Date()` and performance.now read its time. Nothing fires until the check advances it.
// - advance(ms) runs the timers due within ms, in the order of their due times (then of their creation), each
//   seeing its own due time, and returns the time to the next timer (-1 for none) and the anchors so far.
// - Anchors are the page events native reacts to: the window's load event and each message the page posts to
//   native. The check advances timers only once it has seen as many, so none of them moves before native's turn.
// - A timer's exception is the page's uncaught error, thrown from an engine task of its own, as a timer's is.
// - The clock tells native (the handler) the time to its next timer whenever that time comes nearer.
// - Each report (told, or returned by advance) is numbered in its document: a note posted after an advance can
//   reach native before the advance's own answer, and the newer must win.
(function (late, handlerName) {
  "use strict";
  if (Object.prototype.hasOwnProperty.call(window, "__webbridgeClock")) return;
  const reportError = window.reportError.bind(window);
  const RealDate = window.Date;
  const realNow = RealDate.now;
  const epoch = realNow();
  const performanceOrigin = window.performance.now();
  const handler = window.webkit.messageHandlers[handlerName];
  const post = handler.postMessage.bind(handler);
  const frame = 1000 / 60;
  // Past this many callbacks one advance stops: a page that schedules without end cannot hang the check.
  const runsPerAdvance = 10000;
  const timers = new Map();
  let now = 0;
  let nextID = 1;
  let created = 0;
  let anchors = 0;
  // The nesting level of the timer whose callback runs (0: none), as HTML counts it.
  let level = 0;
  let told = null;
  let running = false;
  let reports = 0;
  const document = Math.random();

  function report(next) {
    reports += 1;
    return { next: next, anchors: anchors, report: reports, document: document };
  }

  function earliest() {
    let first = null;
    for (const [id, timer] of timers) {
      if (first === null || timer.due < first.due || (timer.due === first.due && timer.order < first.order)) {
        first = { id: id, due: timer.due, order: timer.order };
      }
    }
    return first;
  }

  function tell() {
    if (running) return;
    const first = earliest();
    const next = first === null ? -1 : Math.max(0, first.due - now);
    if (first !== null && told !== null && told >= 0 && first.due >= told) return;
    told = first === null ? -1 : first.due;
    post(report(next));
  }

  function schedule(callback, delay, args, every) {
    let wait = Math.max(0, Number(delay) || 0);
    // As engines clamp timers nested past five levels, so a chain of zero-delay timers moves time on.
    if (level + 1 > 5) wait = Math.max(4, wait);
    const id = nextID++;
    timers.set(id, {
      due: now + wait + late, order: created++, level: level + 1, callback: callback, args: args,
      every: every ? Math.max(1, wait) : 0,
    });
    tell();
    return id;
  }

  function clear(id) {
    timers.delete(Number(id));
  }

  function run(until) {
    let runs = 0;
    running = true;
    while (runs < runsPerAdvance) {
      const first = earliest();
      // Within a microsecond is due: the check's time and this one add the same delays in another order.
      if (first === null || first.due > until + 0.001) break;
      const timer = timers.get(first.id);
      now = Math.max(now, timer.due);
      if (timer.every > 0) {
        timer.due = now + timer.every;
        timer.order = created++;
      } else {
        timers.delete(first.id);
      }
      runs += 1;
      level = timer.level;
      try {
        if (typeof timer.callback === "function") {
          timer.callback.apply(window, timer.args);
        } else {
          (0, eval)(String(timer.callback));
        }
      } catch (error) {
        reportError(error);
      } finally {
        level = 0;
      }
    }
    running = false;
    if (runs < runsPerAdvance) now = Math.max(now, until);
  }

  window.setTimeout = function setTimeout(callback, delay, ...args) { return schedule(callback, delay, args, false); };
  window.setInterval = function setInterval(callback, delay, ...args) { return schedule(callback, delay, args, true); };
  window.clearTimeout = function clearTimeout(id) { clear(id); };
  window.clearInterval = function clearInterval(id) { clear(id); };
  window.requestAnimationFrame = function requestAnimationFrame(callback) {
    const wait = (Math.floor(now / frame) + 1) * frame - now;
    return schedule(function () { callback(now); }, wait - late, [], false);
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) { clear(id); };

  function VirtualDate(...args) {
    if (!new.target) return new RealDate(epoch + now).toString();
    return args.length === 0 ? new RealDate(epoch + now) : new RealDate(...args);
  }
  VirtualDate.prototype = RealDate.prototype;
  VirtualDate.now = function now_() { return epoch + now; };
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  window.Date = VirtualDate;
  window.performance.now = function now_() { return performanceOrigin + now; };

  window.addEventListener("load", function () { anchors += 1; }, true);
  const Handler = Object.getPrototypeOf(handler);
  const postMessage = Handler.postMessage;
  Handler.postMessage = function (...args) {
    if (this !== handler) anchors += 1;
    return postMessage.apply(this, args);
  };

  Object.defineProperty(window, "__webbridgeClock", {
    value: Object.freeze({
      advance: function (milliseconds) {
        run(now + Math.max(0, Number(milliseconds) || 0));
        told = null;
        const first = earliest();
        return report(first === null ? -1 : Math.max(0, first.due - now));
      },
      now: function () { return now; },
    }),
  });
})
