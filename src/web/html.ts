/** Text for HTML: the five characters that could open markup or close an attribute. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A whole page: one stylesheet inline, no script (nothing to load, nothing to break). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1,h2{line-height:1.2}table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
code,pre{font:13px ui-monospace,monospace;background:#f4f5f7;border-radius:4px}pre{padding:.75rem;overflow:auto}
.price{white-space:nowrap}.muted{color:#667}.cards{display:flex;gap:1rem;flex-wrap:wrap}
.card{border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;min-width:11rem}.card b{font-size:1.4rem;display:block}
</style></head><body>
${body}
</body></html>`
}
