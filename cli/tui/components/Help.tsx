// Automatic JSX even where tsx finds no tsconfig (bazaar run from any folder).
/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Box, Text } from "ink";

export interface KeyHelp {
  keys: string;
  does: string;
}

/** The key bindings of the screen in use. */
export function Help({ title, keys, width }: { title: string; keys: readonly KeyHelp[]; width: number }) {
  const w = Math.max(...keys.map((k) => k.keys.length));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" width={Math.min(width, 72)}>
      <Text bold>{title}</Text>
      {keys.map((k) => (
        <Text key={k.keys} wrap="truncate">
          <Text color="cyan">{k.keys.padEnd(w)}</Text> {k.does}
        </Text>
      ))}
    </Box>
  );
}
