/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, e.g. `npm run bench:ack -- --cpu-prof DIR`):
 * the functions with the most self time, and self time per package or project folder — enough to
 * see where a command's CPU goes without opening DevTools.
 *
 * Usage: `npx tsx bench/lib/profile-top.ts FILE.cpuprofile [--top 25] [--from SECONDS]`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    /** Seconds of the profile to skip (start-up: module loading, migrations, seeding). */
    from: { type: 'string', default: '0' },
  },
});
const top = Number(values.top);
const fromUs = Number(values.from) * 1e6;

/** `node_modules/<pkg>` or the project folder (`src/store`…) of a script URL. */
function area(url: string): string {
  if (!url) return '(native / GC / idle)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('node:')) return 'node core';
  const src = url.match(/\/(src|bench)\/(.*)\/[^/]+$/);
  if (src) return `${src[1]}/${src[2]}`;
  return url.replace(/^file:\/\//, '');
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= fromUs) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    if (callFrame.functionName === '(idle)') continue;
    const name = `${callFrame.functionName || '(anonymous)'} ${area(callFrame.url)}:${callFrame.lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    const a = ['(program)', '(garbage collector)'].includes(callFrame.functionName)
      ? callFrame.functionName
      : area(callFrame.url);
    areas.set(a, (areas.get(a) ?? 0) + us);
  }
  // Node core and native time charged to the nearest caller in a package or the project: who made it.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owner = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = byId.get(at)!;
      const a = area(callFrame.url);
      if (a !== 'node core' && a !== '(native / GC / idle)') {
        return `${callFrame.functionName || '(anonymous)'} ${a}:${callFrame.lineNumber + 1}`;
      }
    }
    return '(no caller in a package: event loop, GC, module loading)';
  };
  const owners = new Map<string, number>();
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const o = owner(id);
    owners.set(o, (owners.get(o) ?? 0) + us);
  }
  const busy = [...fn.values()].reduce((a, b) => a + b, 0);
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1)}%`;
  console.log(`\n${file}: ${(total / 1000).toFixed(0)} ms profiled, ${(busy / 1000).toFixed(0)} ms busy\n`);
  console.log('Self time by area:');
  for (const [name, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us).padStart(6)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
  console.log('\nSelf time with node core charged to its caller:');
  for (const [name, us] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us).padStart(6)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
  console.log('\nSelf time by function:');
  for (const [name, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us).padStart(6)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
}
