/**
 * Which way the code may depend, checked by `npm run lint` (so in CI) with dependency-cruiser.
 *
 * From the bottom up: http/ (pools, one attempt, backoff), the shared limits.ts, metrics.ts,
 * logger.ts and time.ts; planning/, slack-api/ (the one Slack sender), blockkit/, config.ts and
 * store/; clients.ts; digest/ and watch/; slack/ (topics over bolt/ and kit/, whose change funnel
 * alone reflects a change); app/, the composition; bin/, the process entries.
 * playground/ (the local Slack) and sandbox/ (the local planning service) stand beside the app and
 * never get into what a deployment runs. See the README's Architecture section. Tests (test/) sit
 * beside their topic and take what they share from test/helpers/ only; nothing the app runs imports them.
 *
 * Paths are regular expressions on the file's path from the repository root; a rule without
 * `dynamic` matches static imports, type-only imports and `import()` alike.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle ties every file in it together and makes start-up depend on which one is read first ' +
        '(main.ts once imported the playground, which imported main.ts).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the resolver cannot follow is invisible to every other rule here.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'http-imports-nothing',
      comment:
        'src/http/ is the HTTP beneath every client (pools, one attempt, backoff): the planning client and the ' +
        'Slack sender build on it, so it knows neither, nor anything else of the app.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/', pathNot: '^src/http/' },
    },
    {
      name: 'planning-imports-no-app-code',
      comment:
        'The planning client knows HTTP, never Slack: the sandbox, the digest and the Slack app build on it, ' +
        'so it builds on none of them (only on src/http/).',
      severity: 'error',
      from: { path: '^src/planning/' },
      to: { path: '^src/', pathNot: ['^src/planning/', '^src/http/'] },
    },
    {
      name: 'model-imports-no-app-code',
      comment:
        "src/model/ is the planning assistant's model client: HTTP to an OpenAI-compatible endpoint, never Slack " +
        'and never the planning service — what the model may read reaches it only as the tools its caller gives.',
      severity: 'error',
      from: { path: '^src/model/' },
      to: { path: '^src/', pathNot: '^src/model/' },
    },
    {
      name: 'slack-api-knows-no-app',
      comment:
        "src/slack-api/ is Slack's Web API as the app sends to it (the one sender, its method table): every " +
        'Slack client goes through it, the digest and the watch too, so it knows nothing of what the app posts — ' +
        'only HTTP, the posting limiter and the metrics labels.',
      severity: 'error',
      from: { path: '^src/slack-api/' },
      to: { path: '^src/', pathNot: ['^src/slack-api/', '^src/http/', '^src/(limits|metrics)[.]ts$'] },
    },
    {
      name: 'blockkit-imports-no-app-code',
      comment: "Slack's limits, builders and safe mrkdwn are used by every surface; they use none of them.",
      severity: 'error',
      from: { path: '^src/blockkit/' },
      to: { path: '^src/', pathNot: '^src/blockkit/' },
    },
    {
      name: 'store-imports-nothing-above',
      comment:
        'Every layer keeps its data through the store; the store needs only the shared config, logger and ' +
        'time, never the code that uses it.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: ['^src/store/', '^src/(config|logger|time)[.]ts$'] },
    },
    {
      name: 'watch-not-to-slack',
      comment:
        'The watch pass reads the service and hands what changed to a sink (src/watch/sink.ts) that the Slack ' +
        'side implements, as the digest hands its DMs: it never imports Slack code, so it can be run, tested and ' +
        'benchmarked without Bolt (and an import from it into slack/kit would make the two depend both ways).',
      severity: 'error',
      from: { path: '^src/watch/' },
      to: { path: '^src/(slack|app|bin|playground|sandbox)/' },
    },
    {
      name: 'shared-utilities-import-nothing',
      comment:
        'limits.ts (work per key, posting turns), metrics.ts, logger.ts and time.ts are used by every layer, ' +
        'the store and the HTTP clients included; they use none of them.',
      severity: 'error',
      from: { path: '^src/(limits|metrics|logger|time)[.]ts$' },
      to: { path: '^src/', pathNot: '^src/(limits|metrics|logger|time)[.]ts$' },
    },
    {
      name: 'config-reads-only-what-it-validates-against',
      comment:
        'config.ts is read first, at start-up, by everything: it knows only the limits and the planning ' +
        "service's link templates and connection default it checks values against — never a client, the store " +
        'or Slack code.',
      severity: 'error',
      from: { path: '^src/config[.]ts$' },
      to: {
        path: '^src/',
        pathNot: [
          '^src/(limits|logger|time)[.]ts$',
          '^src/planning/(transport|web-links)[.]ts$',
          '^src/http/',
        ],
      },
    },
    {
      name: 'clients-build-only-clients',
      comment:
        "clients.ts makes the process's API clients (planning, and Slack through the one sender) with their " +
        'limits, logs and metrics; the layers that use them (digest, watch, slack/) and the store are above it.',
      severity: 'error',
      from: { path: '^src/clients[.]ts$' },
      to: {
        path: '^src/',
        pathNot: ['^src/(planning|slack-api|http)/', '^src/(limits|logger|metrics|time)[.]ts$'],
      },
    },
    {
      name: 'digest-not-to-slack',
      comment:
        "The digest's core and scheduler run without Bolt: what they post goes through a Web API client, " +
        'and a DM through a function the app gives them.',
      severity: 'error',
      from: { path: '^src/digest/' },
      to: { path: '^src/slack/' },
    },
    {
      name: 'only-entries-and-playground-to-app',
      comment:
        'The composition sits above every layer: the entries start it, and the playground, which runs it as ' +
        'production does. Anything else importing it would be a layer reaching up.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|bin|playground)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'not-to-entries',
      comment:
        'src/bin/ holds process entries: importing one runs it (reads .env, starts a server, handles signals). ' +
        'Shared code belongs in app/ or in the module the entries call.',
      severity: 'error',
      from: {},
      to: { path: '^src/bin/' },
    },
    {
      name: 'playground-only-from-entries',
      comment:
        'The local Slack page is for `npm start` without Slack variables, `npm run playground` and the tests; ' +
        'a deployment never loads it — no Slack listener, no job, not even through import().',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(bin|playground)/' },
      to: { path: '^src/playground/' },
    },
    {
      name: 'sandbox-only-from-app-entries-playground',
      comment:
        'The local planning service is started by the composition when PLANNING_API_URL=sandbox, by ' +
        '`npm run sandbox` and by the playground; the Slack app, the digest and the lower layers never use it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|bin|playground|sandbox)/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'app-loads-sandbox-on-demand',
      comment:
        'The composition imports the sandbox with import() only when PLANNING_API_URL=sandbox, so that a ' +
        'deployment never loads its code; a static import would load it at every start (types are erased).',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/sandbox/', dynamic: false, dependencyTypesNot: ['type-only'] },
    },

    // ── src/slack/: one folder per topic over bolt/ (Slack's platform) and kit/ (what topics share) ──
    {
      name: 'bolt-knows-no-app',
      comment:
        "bolt/ is Slack's platform: the Bolt app, the receiver, the router and its route tables. It knows " +
        'nothing of what the app does with them: no kit, no topic.',
      severity: 'error',
      from: { path: '^src/slack/bolt/' },
      to: { path: '^src/slack/', pathNot: '^src/slack/bolt/' },
    },
    {
      name: 'kit-knows-no-topic',
      comment:
        'kit/ is what topics share (acting identity, replies, modals, forms, live cards, notify): a topic ' +
        'builds on it, so it builds on no topic.',
      severity: 'error',
      from: { path: '^src/slack/kit/' },
      to: { path: '^src/slack/[^/]+/', pathNot: '^src/slack/(kit|bolt)/' },
    },
    {
      name: 'changes-reflected-only-by-the-funnel',
      comment:
        'What follows a change of a task or a feature — a card updated or retired, a DM about it, a line in a ' +
        "card's thread — is done by the change funnel (kit/changes/) alone, so that every surface (a press, a " +
        'form, a workflow step, the watch, a canvas next) reflects a change the same way. Others use its public ' +
        'face, index.ts: describe the change and hand it over.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/slack/kit/changes/' },
      to: { path: '^src/slack/kit/changes/', pathNot: '^src/slack/kit/changes/index[.]ts$' },
    },
    {
      name: 'dms-through-the-funnel',
      comment:
        "A DM about a change is the change funnel's (its rules say who is told, once). Besides it, only the DMs " +
        'that are no change of a task or feature send through kit/notify.ts: an invitation shared (admin/share-' +
        'form.ts) and the daily peer-grade count with the held DMs of quiet hours (app/jobs.ts).',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['^src/slack/kit/changes/', '^src/slack/admin/share-form[.]ts$', '^src/app/jobs[.]ts$'],
      },
      to: { path: '^src/slack/kit/notify[.]ts$' },
    },
    {
      name: 'topics-meet-through-their-index',
      comment:
        "A topic reaches another topic only through that topic's index.ts, which says what it offers; " +
        'its other files are its own business.',
      severity: 'error',
      from: { path: '^src/slack/([^/]+)/' },
      to: {
        path: '^src/slack/[^/]+/',
        pathNot: ['^src/slack/$1/', '^src/slack/(kit|bolt)/', '^src/slack/[^/]+/index[.]ts$'],
      },
    },

    // ── test/: each test beside its topic, every helper in test/helpers/ ──
    {
      name: 'tests-share-only-helpers',
      comment:
        'A test reaches the code it tests through src/ and its helpers through test/helpers/, where each ' +
        'driving action is written once (the Slack harness: press, shortcut, openForm…). A helper kept ' +
        'beside one folder’s tests, or a test importing another, grows the copies issue 34 removed.',
      severity: 'error',
      from: { path: '^test/' },
      to: { path: '^test/', pathNot: '^test/helpers/' },
    },
    {
      name: 'no-test-file-imported',
      comment:
        'Importing a *.test.ts file registers its suites a second time in the importer; a helper or a test ' +
        'needing something from one means it belongs in test/helpers/.',
      severity: 'error',
      from: {},
      to: { path: '[.]test[.]ts$' },
    },
    {
      name: 'app-not-to-test',
      comment:
        'What a deployment and the npm scripts run never loads test code: the harness, the fake worlds and ' +
        'the test data stay in test/ (bench/ may use test helpers: it is run by hand, beside the tests).',
      severity: 'error',
      from: { path: '^(src|scripts)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from the wrong layer ties the code to it as much as a value.
    tsPreCompilationDeps: true,
    // NodeNext resolution as tsc does it (`./x.js` is `./x.ts`).
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
