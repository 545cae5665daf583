// "My scenarios": what this browser saved and ran, kept in local storage with the owner tokens
// the server returned (docs/security.md). The client sends them in X-Owner-Token on every call
// (lib/api/client.ts): the first one owns what this browser creates next, and together they are
// what lists show and what may be cancelled or deleted. There are no accounts: the list is the
// only link between a person and their work, so it can be exported and imported.

export interface MyScenario {
  id: string;
  name: string;
  owner_token?: string;
  parent_id?: string | null;
  created_at: string;
}

export interface MyRun {
  id: string;
  scenario_id: string;
  created_at: string;
}

/** A sweep or tuning started in this browser (Home lists them to find them again). */
export interface MyWork {
  id: string;
  /** The scenario it searches (a tuning's first). */
  scenario_id: string;
  name: string;
  created_at: string;
}

export interface MineFile {
  format: "fabrictwin-mine";
  version: 1;
  scenarios: MyScenario[];
  runs: MyRun[];
  /** Owner tokens of runs, sweeps and tunings (a scenario's is on the scenario), oldest first. */
  tokens?: string[];
  /** Absent in lists exported before sweeps and tunings were kept. */
  sweeps?: MyWork[];
  tunings?: MyWork[];
}

const KEY = "fabrictwin.mine.v1";
const LIMIT = 500;
/** The most tokens one request sends (the server's limit, app/core/owners.py). */
export const MAX_TOKENS = 32;
const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;
const listeners = new Set<() => void>();

function empty(): MineFile {
  return { format: "fabrictwin-mine", version: 1, scenarios: [], runs: [], tokens: [] };
}

export function loadMine(): MineFile {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw) return empty();
    return parseMine(raw);
  } catch {
    return empty();
  }
}

function store(m: MineFile) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(m));
  } catch {
    /* storage full or disabled: the list just is not kept */
  }
  for (const l of listeners) l();
}

export function subscribeMine(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function rememberScenario(s: MyScenario) {
  const m = loadMine();
  m.scenarios = [s, ...m.scenarios.filter((x) => x.id !== s.id)].slice(0, LIMIT);
  store(m);
}

export function rememberRun(id: string, scenarioId: string) {
  const m = loadMine();
  m.runs = [{ id, scenario_id: scenarioId, created_at: new Date().toISOString() }, ...m.runs.filter((r) => r.id !== id)].slice(0, LIMIT);
  store(m);
}

/** Keeps an owner token the server returned (the first kept stays first: it owns new work). */
export function rememberToken(token: string) {
  if (!TOKEN.test(token)) return;
  const m = loadMine();
  if (ownerTokensOf(m).includes(token)) return;
  m.tokens = [...(m.tokens ?? []), token];
  store(m);
}

function ownerTokensOf(m: MineFile): string[] {
  const all = [...(m.tokens ?? []), ...m.scenarios.map((s) => s.owner_token ?? "")];
  return [...new Set(all.filter((t) => TOKEN.test(t)))];
}

/** The tokens to send in X-Owner-Token: this browser's own first, at most MAX_TOKENS. */
export function ownerTokens(): string[] {
  return ownerTokensOf(loadMine()).slice(0, MAX_TOKENS);
}

/** Remembers a sweep or a tuning this browser started. */
export function rememberWork(kind: "sweeps" | "tunings", w: Omit<MyWork, "created_at"> & { created_at?: string }) {
  const m = loadMine();
  const entry = { ...w, created_at: w.created_at ?? new Date().toISOString() };
  m[kind] = [entry, ...(m[kind] ?? []).filter((x) => x.id !== w.id)].slice(0, LIMIT);
  store(m);
}

/** This browser's runs, sweeps and tunings, newest first (Home's "My recent work"). */
export function recentWork(m: MineFile, n = 10): { kind: "run" | "sweep" | "tuning"; id: string; scenario_id: string; name: string; created_at: string }[] {
  return [
    ...m.runs.map((r) => ({ kind: "run" as const, ...r, name: "" })),
    ...(m.sweeps ?? []).map((w) => ({ kind: "sweep" as const, ...w })),
    ...(m.tunings ?? []).map((w) => ({ kind: "tuning" as const, ...w })),
  ].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, n);
}

export function forgetScenario(id: string) {
  const m = loadMine();
  m.scenarios = m.scenarios.filter((s) => s.id !== id);
  m.runs = m.runs.filter((r) => r.scenario_id !== id);
  store(m);
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Reads an exported list; throws with a sentence when it is not one. */
export function parseMine(text: string): MineFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("not a JSON file");
  }
  const d = data as Partial<MineFile>;
  if (!d || d.format !== "fabrictwin-mine" || !Array.isArray(d.scenarios) || !Array.isArray(d.runs)) {
    throw new Error('not a FabricTwin "my scenarios" file (format "fabrictwin-mine" expected)');
  }
  const scenarios = d.scenarios.filter((s): s is MyScenario => !!s && typeof s.id === "string" && ID.test(s.id))
    .map((s) => ({ id: s.id, name: String(s.name ?? ""), owner_token: typeof s.owner_token === "string" ? s.owner_token : undefined, parent_id: s.parent_id ?? null, created_at: String(s.created_at ?? "") }));
  const runs = d.runs.filter((r): r is MyRun => !!r && typeof r.id === "string" && ID.test(r.id) && typeof r.scenario_id === "string")
    .map((r) => ({ id: r.id, scenario_id: r.scenario_id, created_at: String(r.created_at ?? "") }));
  const tokens = Array.isArray(d.tokens) ? d.tokens.filter((t): t is string => typeof t === "string" && TOKEN.test(t)) : [];
  const work = (list: unknown) => (Array.isArray(list) ? list : [])
    .filter((w): w is MyWork => !!w && typeof w.id === "string" && ID.test(w.id) && typeof w.scenario_id === "string")
    .map((w) => ({ id: w.id, scenario_id: w.scenario_id, name: String(w.name ?? ""), created_at: String(w.created_at ?? "") }));
  return { format: "fabrictwin-mine", version: 1, scenarios, runs, tokens, sweeps: work(d.sweeps), tunings: work(d.tunings) };
}

/** Adds an imported list to this browser's (entries already here are kept as they are). */
export function importMine(text: string): { scenarios: number; runs: number } {
  const incoming = parseMine(text);
  const m = loadMine();
  const haveS = new Set(m.scenarios.map((s) => s.id));
  const haveR = new Set(m.runs.map((r) => r.id));
  const newS = incoming.scenarios.filter((s) => !haveS.has(s.id));
  const newR = incoming.runs.filter((r) => !haveR.has(r.id));
  m.scenarios = [...m.scenarios, ...newS].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, LIMIT);
  m.runs = [...m.runs, ...newR].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, LIMIT);
  m.tokens = [...new Set([...(m.tokens ?? []), ...(incoming.tokens ?? [])])];
  for (const kind of ["sweeps", "tunings"] as const) {
    const have = new Set((m[kind] ?? []).map((w) => w.id));
    m[kind] = [...(m[kind] ?? []), ...(incoming[kind] ?? []).filter((w) => !have.has(w.id))]
      .sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, LIMIT);
  }
  store(m);
  return { scenarios: newS.length, runs: newR.length };
}

export function exportMine(): string {
  return JSON.stringify(loadMine(), null, 2);
}
