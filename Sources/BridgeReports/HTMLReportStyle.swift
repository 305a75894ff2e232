extension HTMLReport {
    // Lanes sit at fixed offsets (--page from the left, --native from the right); every row spans between them.
    static let style = """
        :root{--page:150px;--native:70px;--ink:#1d2733;--muted:#5b6876;--bad:#c0392b;--ok:#1e8449;--lane:#9aa7b4}
        *{box-sizing:border-box}
        body{margin:24px;min-width:680px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fff;max-width:1100px}
        h1{font-size:20px;margin:0 12px 0 0;display:inline-block}
        header{margin-bottom:12px}
        .verdict{display:inline-block;margin:0;padding:2px 10px;border-radius:4px;font-weight:700;color:#fff}
        .verdict.pass,.badge.pass{background:var(--ok)}.verdict.fail,.badge.fail{background:var(--bad)}.verdict.none{background:var(--muted)}
        .badge{font-size:11px;color:#fff;padding:1px 6px;border-radius:3px;vertical-align:middle}
        .notice{background:#fff4d6;border:1px solid #e0b84c;padding:6px 10px}
        table{border-collapse:collapse}
        .summary{margin:8px 0 20px;font-size:13px}
        .summary th,.summary td{border:1px solid #d5dbe1;padding:4px 8px;text-align:left;vertical-align:top}
        .summary th{background:#f1f4f7}.summary th.category{max-width:150px;font-weight:600}
        .num{text-align:right!important;font-variant-numeric:tabular-nums}.bad{color:var(--bad);font-weight:700}
        .total td{font-weight:600;background:#f7f9fb}
        h2{font-size:17px;border-bottom:2px solid #d5dbe1;padding-bottom:4px;margin-top:28px;overflow-wrap:anywhere}
        summary{font-size:15px;font-weight:700;margin:18px 0 6px;cursor:pointer}
        .page-summary{color:var(--muted);margin:4px 0 8px;overflow-wrap:anywhere}
        .diagram{position:relative;padding:36px 0 10px;border:1px solid #e3e8ed;border-radius:6px;background:#fbfcfd}
        .diagram::before,.diagram::after{content:"";position:absolute;top:30px;bottom:0;width:2px;background:var(--lane)}
        .diagram::before{left:calc(var(--page) - 1px)}.diagram::after{right:calc(var(--native) - 1px)}
        .heads .head{position:absolute;top:6px;width:84px;text-align:center;font-weight:700;font-size:12px;border:2px solid var(--lane);border-radius:4px;background:#fff;padding:1px 0}
        .heads .page{left:calc(var(--page) - 42px)}.heads .native{right:calc(var(--native) - 42px)}
        .step{position:relative;min-height:30px;padding:3px 0}
        .time{position:absolute;left:0;top:6px;width:calc(var(--page) - 70px);text-align:right;font-size:11px;color:var(--muted);font-variant-numeric:tabular-nums}
        .label{display:block;font-size:12px;overflow-wrap:anywhere;position:relative}
        .label b{font-weight:600}.note{color:var(--muted);font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:11px}
        .arrow .label,.arrow-like .label{margin:0 calc(var(--native) + 16px) 0 calc(var(--page) + 16px);text-align:center}
        .line{display:block;position:relative;height:2px;background:var(--ink);margin:3px var(--native) 2px var(--page)}
        .line::after{content:"";position:absolute;top:-5px;border-top:6px solid transparent;border-bottom:6px solid transparent}
        .line.from-page::after{right:0;border-left:10px solid var(--ink)}
        .line.from-native::after{left:0;border-right:10px solid var(--ink)}
        .mark .label,.mark-like .label{margin:0 calc(var(--native) + 16px) 0 calc(var(--page) + 14px);color:var(--muted)}
        .mark .label b,.mark-like .label b{color:var(--ink);font-weight:500}
        .dot{position:absolute;left:calc(var(--page) - 6px);top:8px;width:12px;height:12px;border-radius:50%;background:#fff;border:2px solid var(--lane)}
        .dot.ok{border-color:var(--ok);background:var(--ok)}.dot.bad{border-color:var(--bad);background:var(--bad)}
        .failing .label b{color:var(--bad)}
        .failing .line{background:var(--bad)}.failing .line.from-page::after{border-left-color:var(--bad)}
        .failing .line.from-native::after{border-right-color:var(--bad)}
        .missing .line{background:repeating-linear-gradient(90deg,var(--bad) 0 6px,transparent 6px 11px)}
        .failing{background:#fdecea}
        .failure{margin:2px var(--native) 8px var(--page);padding:6px 10px;border-left:4px solid var(--bad);background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.15);position:relative;font-size:12px}
        .failure .category{display:block;font-weight:700;color:var(--bad);text-transform:uppercase;letter-spacing:.02em;font-size:11px}
        .failure .owner{display:block;font-weight:600;margin:2px 0}
        .failure .remedy{display:block;overflow-wrap:anywhere;white-space:pre-wrap}
        .meta{margin:4px 0 8px;font-size:12px;color:var(--muted)}.meta dt,.meta dd{display:inline;margin:0}
        .meta dt::after{content:": "}.meta dd{margin-right:14px;color:var(--ink)}
        .summary a{color:inherit}.not-run{color:var(--muted)}
        .verdicts{margin:8px 0;font-size:12px}
        .verdicts th{text-align:left;padding:2px 12px 2px 0;white-space:nowrap;font-weight:600;vertical-align:top}
        .verdicts td{padding:2px 10px 2px 0;vertical-align:top;overflow-wrap:anywhere}
        .status{font-weight:700;white-space:nowrap}.status.pass{color:var(--ok)}.status.fail{color:var(--bad)}.status.not-run{color:var(--muted)}
        .also-seen,.omitted,.empty,.replay{color:var(--muted);font-size:12px}
        .replay code{overflow-wrap:anywhere}
        """
}
