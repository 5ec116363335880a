// ESLint flat config: type-aware TypeScript rules plus the layer map of docs/ARCHITECTURE.md.
// `npm run lint` runs it over src, test and bench; `npm test` runs it first. The layer rules are exported so that
// test/lint/layers.test.ts can prove they reject a deliberate violation.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

/**
 * The engine's public entry points: the only engine modules that `src/server`, `src/cli` and
 * `src/commands` may import. Paths are relative to `src/engine`.
 */
export const ENGINE_ENTRY_POINTS = ['./index.ts', './config/index.ts', './auth/index.ts', './transfer/index.ts', './assistant/index.ts'];

/** The zones of the layer map, in `import-x/no-restricted-paths` form (paths from the repository root). */
export const LAYER_ZONES = [
  ...['server', 'cli', 'commands'].map((layer) => ({
    target: `./src/${layer}`,
    from: './src/engine',
    except: ENGINE_ENTRY_POINTS,
    message: `src/${layer} imports the engine only through its public entry points: src/engine/{index,config/index,auth/index,transfer/index,assistant/index}.ts.`,
  })),
  {
    target: './src/engine',
    from: ['./src/server', './src/cli', './src/commands'],
    message: 'The engine never imports a listener, the CLI or a command.',
  },
  {
    target: './src/engine/storage',
    from: './src/engine/cypher',
    message: 'Storage never imports the Cypher pipeline.',
  },
  {
    target: './src/engine/values',
    from: './src/engine',
    except: ['./values', './errors'],
    message: 'Values import nothing above them (only the error model).',
  },
  {
    target: './src/engine/errors',
    from: './src',
    except: ['./engine/errors'],
    message: 'The error model imports nothing.',
  },
  {
    target: './src/server',
    from: './src/commands',
    message: 'Listeners never import commands.',
  },
  {
    target: './src/server/browser/app',
    from: './src',
    except: ['./server/browser/app'],
    message: 'The web UI runs in the browser: it imports only its own modules and browser packages, never the engine or the server.',
  },
];

/** The storage types listeners never import, whichever module would export them. */
export const STORAGE_TYPES = [
  'GraphReader',
  'ReadTransaction',
  'Snapshot',
  'NodeRecord',
  'RelationshipRecord',
  'RelationshipHandle',
  'ChangeEvent',
  'DatabaseStore',
  'StorageEngine',
];

/**
 * Listeners, the CLI and commands never hold a store or a storage type: they use the typed
 * services of `GraphDB.databaseServices` (src/engine/database-services.ts) or a session.
 * `no-restricted-syntax` form.
 */
export const FACADE_SYNTAX = [
  {
    selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='store']",
    message: 'Listeners, the CLI and commands do not take a store (GraphDB.store()): use GraphDB.databaseServices or a session.',
  },
  {
    selector: "MemberExpression[property.name='storage']",
    message: 'Listeners, the CLI and commands do not reach the storage engine: use GraphDB.databaseServices or a session.',
  },
  {
    selector: `ImportSpecifier[imported.name=/^(${STORAGE_TYPES.join('|')})$/]`,
    message:
      'Listeners, the CLI and commands never handle storage readers, records or stores: read through a session (Cypher) or GraphDB.databaseServices, which return materialized Node/Relationship values.',
  },
];

const resolver = createNodeResolver({
  extensions: ['.ts', '.tsx', '.mjs', '.js', '.json', '.node'],
  extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'bench/node_modules/**',
      'bench/data/**',
      'data/**',
      '.tmp/**',
      'test/.tmp/**',
      'test/**/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.js',
            '*.mjs',
            'bench/*.mjs',
            'test/*.mjs',
            'src/engine/search/vector/native/*.mjs',
            'src/server/browser/*.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [resolver],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': ['error', { zones: LAYER_ZONES }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Rethrowing or rejecting with a caught `unknown` propagates an error unchanged.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // Generator functions inside methods cannot be arrows; `self` is their receiver.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
      // Off: an `async` method without `await` implements a Promise-returning contract, and
      // removing `async` would turn its throws into synchronous exceptions.
      '@typescript-eslint/require-await': 'off',
      // Off: a VOID procedure is a generator that yields no rows (procedures/registry.ts).
      'require-yield': 'off',
    },
  },
  {
    files: ['src/server/**/*.ts', 'src/cli/**/*.ts', 'src/commands/**/*.ts'],
    ignores: ['src/server/browser/app/**'],
    rules: { 'no-restricted-syntax': ['error', ...FACADE_SYNTAX] },
  },
  {
    // Tests and benches: node:test's describe/it/test/suite and hooks return promises the runner
    // itself awaits, so calling them without `await` is their intended use.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read untyped wire data (HTTP and GraphQL JSON bodies, MCP and model-server messages)
    // as `any` on purpose (`request<T = any>` in test/http/helpers.ts): the assertions are what
    // check its shape. Every other type-aware rule applies to tests as to src.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The web UI (bundled by esbuild for the browser; its own tsconfig has the DOM library).
    files: ['src/server/browser/app/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
