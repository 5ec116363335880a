/**
 * The interactive shell (ink): output scrolls above in a Static region, the input line below
 * shows the prompt and the syntax-highlighted text with a cursor. Enter submits a line (a
 * statement runs once a `;` ends it), Up/Down walk the history, Tab completes, Ctrl-C drops
 * the typed statement (or exits on an empty prompt), Ctrl-D exits.
 */
import { useState, type ReactElement } from 'react';
import { Box, Static, Text, useApp, useInput } from 'ink';
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
      parts.push(<Text key={key++} color={color} bold={bold}>{segment.text.slice(0, at)}</Text>);
      parts.push(<Text key={key++} inverse>{segment.text[at]}</Text>);
      parts.push(<Text key={key++} color={color} bold={bold}>{segment.text.slice(at + 1)}</Text>);
    } else {
      parts.push(<Text key={key++} color={color} bold={bold}>{segment.text}</Text>);
    }
    offset = end;
  }
  if (cursor >= text.length) parts.push(<Text key={key++} inverse> </Text>);
  return <Text>{parts}</Text>;
}

/** The ink component of `graphdb shell`. */
export function ShellApp({ core, history, connectOutput, banner, onExit }: ShellAppProps) {
  const { exit } = useApp();
  const [blocks, setBlocks] = useState<OutputBlock[]>([{ id: 0, text: banner, kind: 'info' }]);
  const [text, setText] = useState('');
  const [cursor, setCursor] = useState(0);
  const [busy, setBusy] = useState(false);
  const [browse, setBrowse] = useState<number | null>(null);
  const [pendingLines, setPendingLines] = useState<string[]>([]);
  const [prompt, setPrompt] = useState(core.prompt);
  const [vocabulary, setVocabulary] = useState<Vocabulary | null>(null);

  const append = (block: Omit<OutputBlock, 'id'>) => setBlocks((previous) => [...previous, { ...block, id: previous.length }]);
  connectOutput(append);

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
    setText(value);
    setCursor(at);
  };

  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (text === '' && !core.hasPendingInput) return quit();
      core.cancelInput();
      setPendingLines([]);
      setPrompt(core.prompt);
      return setInput('');
    }
    if (key.ctrl && input === 'd') {
      if (text === '') quit();
      return;
    }
    if (busy) return;
    if (key.return) {
      const value = text;
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
      return setInput(index >= entries.length ? '' : entries[index]!.replace(/\s*\n\s*/g, ' '));
    }
    if (key.leftArrow) return setCursor(Math.max(0, cursor - 1));
    if (key.rightArrow) return setCursor(Math.min(text.length, cursor + 1));
    if (key.home || (key.ctrl && input === 'a')) return setCursor(0);
    if (key.end || (key.ctrl && input === 'e')) return setCursor(text.length);
    if (key.backspace || key.delete) {
      if (cursor === 0) return;
      return setInput(text.slice(0, cursor - 1) + text.slice(cursor), cursor - 1);
    }
    if (key.tab) {
      void (async () => {
        const words = vocabulary ?? (await core.client.vocabulary());
        setVocabulary(words);
        const completion = complete(text, cursor, words);
        if (completion.candidates.length > 0) append({ text: completion.candidates.join('  '), kind: 'info' });
        setInput(completion.text, completion.cursor);
      })();
      return;
    }
    if (input === '' || key.ctrl || key.meta || key.escape) return;
    const lines = input.replace(/\r\n?/g, '\n').split('\n');
    if (lines.length > 1) {
      const first = text.slice(0, cursor) + lines[0]!;
      const last = lines[lines.length - 1]!;
      setInput(last + text.slice(cursor), last.length);
      void submit([first, ...lines.slice(1, -1)]);
      return;
    }
    setInput(text.slice(0, cursor) + input + text.slice(cursor), cursor + input.length);
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
        <Text color="gray">running…</Text>
      ) : (
        <Box>
          <Text bold color="green">
            {prompt}
          </Text>
          <HighlightedInput text={text} cursor={cursor} />
        </Box>
      )}
    </Box>
  );
}
