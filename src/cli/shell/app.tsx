/**
 * The interactive shell (ink): output scrolls above in a Static region, the input line below
 * shows the prompt and the syntax-highlighted text with a cursor. Enter submits a line (a
 * statement runs once a `;` ends it), Up/Down walk the history, Tab completes, readline keys
 * edit the line (see line-editor.ts), Ctrl-R searches the history, Ctrl-L clears the screen.
 * Ctrl-C cancels a running query (the shell stays), drops the typed statement, or, pressed twice
 * at an empty prompt, exits; Ctrl-D exits at an empty prompt.
 */
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Box, Static, Text, useApp, useInput, useStdin } from 'ink';
import { HistorySearch, LineEditor, oneLine, splitKeyBurst } from './line-editor.js';
import { highlight, type SegmentStyle } from './highlight.js';
import { complete } from './completion.js';
import type { ShellCore } from './core.js';
import type { History } from './history.js';
import type { Vocabulary } from './client.js';

/** A block of output. */
export interface OutputBlock {
  readonly id: number;
  readonly text: string;
  readonly kind: 'info' | 'result' | 'error' | 'echo';
}

const COLORS: Record<SegmentStyle, string | undefined> = {
  keyword: 'cyan',
  label: 'blue',
  string: 'green',
  number: 'yellow',
  parameter: 'magenta',
  function: 'cyanBright',
  punctuation: undefined,
  comment: 'gray',
  plain: undefined,
};

/** Props of ShellApp. */
export interface ShellAppProps {
  readonly core: ShellCore;
  readonly history: History;
  /** Registers the function that appends output blocks. */
  readonly connectOutput: (append: (block: Omit<OutputBlock, 'id'>) => void) => void;
  readonly banner: string;
  readonly onExit: () => void;
}

function HighlightedInput({ text, cursor }: { text: string; cursor: number }) {
  const segments = highlight(text);
  const parts: ReactElement[] = [];
  let offset = 0;
  let key = 0;
  for (const segment of segments) {
    const end = offset + segment.text.length;
    const color = COLORS[segment.style];
    const bold = segment.style === 'keyword';
    if (cursor >= offset && cursor < end) {
      const at = cursor - offset;
      parts.push(
        <Text key={key++} color={color} bold={bold}>
          {segment.text.slice(0, at)}
        </Text>,
      );
      parts.push(
        <Text key={key++} inverse>
          {segment.text[at]}
        </Text>,
      );
      parts.push(
        <Text key={key++} color={color} bold={bold}>
          {segment.text.slice(at + 1)}
        </Text>,
      );
    } else {
      parts.push(
        <Text key={key++} color={color} bold={bold}>
          {segment.text}
        </Text>,
      );
    }
    offset = end;
  }
  if (cursor >= text.length)
    parts.push(
      <Text key={key} inverse>
        {' '}
      </Text>,
    );
  return <Text>{parts}</Text>;
}

/** What a raw key sequence means beyond what ink's parser tells apart. */
type RawKey = 'backspace' | 'delete' | 'word-left' | 'word-right' | 'cut-word' | null;

/** Backspace and Delete both reach ink's handler as `key.delete`; the raw sequence tells them apart. */
function rawKey(sequence: string): RawKey {
  switch (sequence) {
    case '\x7f':
    case '\b':
      return 'backspace';
    case '\x1b[3~':
      return 'delete';
    case '\x1bb':
    case '\x1b[1;5D':
    case '\x1b[1;3D':
      return 'word-left';
    case '\x1bf':
    case '\x1b[1;5C':
    case '\x1b[1;3C':
      return 'word-right';
    case '\x1b\x7f':
    case '\x1b\b':
      return 'cut-word';
    default:
      return null;
  }
}

/** The ink component of `graphdb shell`. */
export function ShellApp({ core, history, connectOutput, banner, onExit }: ShellAppProps) {
  const { exit } = useApp();
  const { internal_eventEmitter: inputEvents } = useStdin() as ReturnType<typeof useStdin> & {
    internal_eventEmitter?: NodeJS.EventEmitter;
  };
  const [blocks, setBlocks] = useState<OutputBlock[]>([{ id: 0, text: banner, kind: 'info' }]);
  const editor = useRef(new LineEditor()).current;
  const [, setRevision] = useState(0);
  const [busy, setBusy] = useState(false);
  const [browse, setBrowse] = useState<number | null>(null);
  const [search, setSearch] = useState<HistorySearch | null>(null);
  const [pendingLines, setPendingLines] = useState<string[]>([]);
  const [prompt, setPrompt] = useState(core.prompt);
  const [vocabulary, setVocabulary] = useState<Vocabulary | null>(null);
  const lastRaw = useRef('');
  const armedExit = useRef(false);
  /** Set when a chunk of several keys was handled key by key (the chunk itself is then skipped). */
  const splitChunk = useRef(false);

  // Registered before useInput's own listener, so the raw sequence is known when a key is handled.
  useEffect(() => {
    const remember = (data: string) => {
      const keys = splitKeyBurst(data);
      if (keys !== null && inputEvents !== undefined) {
        for (const key of keys) inputEvents.emit('input', key);
        splitChunk.current = true;
      }
      lastRaw.current = data;
    };
    inputEvents?.on('input', remember);
    return () => {
      inputEvents?.off('input', remember);
    };
  }, [inputEvents]);

  const append = (block: Omit<OutputBlock, 'id'>) => setBlocks((previous) => [...previous, { ...block, id: previous.length }]);
  connectOutput(append);
  const redraw = () => setRevision((n) => n + 1);

  const quit = () => {
    onExit();
    exit();
  };

  const submit = async (lines: readonly string[]) => {
    setBusy(true);
    let pending = pendingLines;
    for (const line of lines) {
      append({ text: core.prompt + line, kind: 'echo' });
      pending = [...pending, line];
      const outcome = await core.line(line);
      if (outcome !== 'pending') {
        if (outcome !== 'exit') history.add(pending.join('\n'));
        pending = [];
      }
      if (outcome === 'exit') {
        quit();
        return;
      }
    }
    setPendingLines(pending);
    setPrompt(core.prompt);
    setVocabulary(null);
    setBusy(false);
  };

  const setInput = (value: string, at = value.length) => {
    editor.set(value, at);
    redraw();
  };

  const handleSearchKey = (active: HistorySearch, input: string, key: Parameters<Parameters<typeof useInput>[0]>[1], raw: RawKey) => {
    if (key.ctrl && input === 'r') active.older();
    else if ((key.ctrl && input === 'g') || (key.ctrl && input === 'c')) setSearch(null);
    else if (raw === 'backspace') active.deleteBackward();
    else if (key.return) {
      setSearch(null);
      setInput('');
      if (active.index !== null) void submit([active.match]);
      return;
    } else if (input !== '' && !key.ctrl && !key.meta) active.type(input);
    else {
      setSearch(null);
      setInput(active.match);
      return;
    }
    redraw();
  };

  useInput((input, key) => {
    if (splitChunk.current) {
      splitChunk.current = false;
      return;
    }
    const raw = rawKey(lastRaw.current);
    const ctrlC = key.ctrl && input === 'c';
    if (!ctrlC) armedExit.current = false;
    if (busy) {
      if (ctrlC) {
        append({ text: '^C (terminating the running query)', kind: 'info' });
        core.cancelRunning().catch((error: unknown) => append({ text: `Could not cancel: ${String(error)}`, kind: 'error' }));
      }
      return;
    }
    if (search !== null) return handleSearchKey(search, input, key, raw);
    if (ctrlC) {
      if (editor.text === '' && !core.hasPendingInput) {
        if (armedExit.current) return quit();
        armedExit.current = true;
        append({ text: 'Press Ctrl-C again to exit (or type :exit).', kind: 'info' });
        return;
      }
      core.cancelInput();
      setPendingLines([]);
      setPrompt(core.prompt);
      return setInput('');
    }
    if (key.ctrl && input === 'd') {
      if (editor.text === '') return quit();
      editor.deleteForward();
      return redraw();
    }
    if (key.ctrl && input === 'l') {
      process.stdout.write('\x1b[2J\x1b[3J\x1b[H');
      return redraw();
    }
    if (key.ctrl && input === 'r') {
      setSearch(new HistorySearch(history.entries));
      return;
    }
    if (key.return) {
      const value = editor.text;
      setInput('');
      setBrowse(null);
      void submit([value]);
      return;
    }
    if (key.upArrow || key.downArrow) {
      const entries = history.entries;
      if (entries.length === 0) return;
      const index = key.upArrow ? Math.max(0, (browse ?? entries.length) - 1) : Math.min(entries.length, (browse ?? entries.length) + 1);
      setBrowse(index);
      return setInput(index >= entries.length ? '' : oneLine(entries[index]!));
    }
    if (raw === 'word-left') editor.wordLeft();
    else if (raw === 'word-right') editor.wordRight();
    else if (raw === 'cut-word') editor.cutWordBackward();
    else if (key.leftArrow || (key.ctrl && input === 'b')) editor.left();
    else if (key.rightArrow || (key.ctrl && input === 'f')) editor.right();
    else if (key.home || (key.ctrl && input === 'a')) editor.home();
    else if (key.end || (key.ctrl && input === 'e')) editor.end();
    else if (raw === 'delete') editor.deleteForward();
    else if (key.backspace || key.delete || (key.ctrl && input === 'h')) editor.deleteBackward();
    else if (key.ctrl && input === 'w') editor.cutWordBackward();
    else if (key.ctrl && input === 'u') editor.cutToStart();
    else if (key.ctrl && input === 'k') editor.cutToEnd();
    else if (key.ctrl && input === 'y') editor.yank();
    else if (key.tab) {
      void (async () => {
        const words = vocabulary ?? (await core.client.vocabulary());
        setVocabulary(words);
        const completion = complete(editor.text, editor.cursor, words);
        if (completion.candidates.length > 0) append({ text: completion.candidates.join('  '), kind: 'info' });
        setInput(completion.text, completion.cursor);
      })();
      return;
    } else if (input === '' || key.ctrl || key.meta || key.escape) return;
    else {
      const lines = input.replace(/\r\n?/g, '\n').split('\n');
      if (lines.length > 1) {
        const first = editor.text.slice(0, editor.cursor) + lines[0]!;
        const last = lines[lines.length - 1]!;
        setInput(last + editor.text.slice(editor.cursor), last.length);
        void submit([first, ...lines.slice(1, -1)]);
        return;
      }
      editor.insert(input);
    }
    redraw();
  });

  return (
    <Box flexDirection="column">
      <Static items={blocks}>
        {(block) => (
          <Text key={block.id} color={block.kind === 'error' ? 'red' : block.kind === 'info' ? 'gray' : undefined}>
            {block.text}
          </Text>
        )}
      </Static>
      {busy ? (
        <Text color="gray">running… (Ctrl-C to cancel)</Text>
      ) : search !== null ? (
        <Box>
          <Text color="yellow">{search.prompt}</Text>
          <Text>{search.match}</Text>
        </Box>
      ) : (
        <Box>
          <Text bold color="green">
            {prompt}
          </Text>
          <HighlightedInput text={editor.text} cursor={editor.cursor} />
        </Box>
      )}
    </Box>
  );
}
