// Per-language probe programs for the language matrix, plus the helpers
// that drive them through a real MCP client.
//
// Every language gets five programs:
//   hello   prints exactly `hello.out`
//   echo    copies its stdin ("42\n") to stdout
//   exit3   exits with status 3 and no error
//   crash   fails at run time (exception, panic, fatal error)
//   broken  does not compile (compiled languages only)
// `slow` marks toolchains whose start-up or compile takes seconds (JVM, GHC,
// mono, R, BEAM); the matrix gives them a larger timeout.

import { startServer, hasMemoryCgroup } from '../mcp/harness.mjs';

const C_ECHO = '#include <stdio.h>\nint main(void){int c;while((c=getchar())!=EOF)putchar(c);return 0;}\n';
const JS_ECHO = 'import { readFileSync } from "fs";\nprocess.stdout.write(readFileSync(0, "utf8"));\n';
const DENO_ECHO = 'const buf = await new Response(Deno.stdin.readable).text();\nawait Deno.stdout.write(new TextEncoder().encode(buf));\n';
const NODE_ECHO = 'process.stdout.write(require("fs").readFileSync(0, "utf8"));\n';

/** name -> programs. The key is the registry name of TOOLS.md section 7. */
export const PROGRAMS = {
  awk: {
    hello: 'BEGIN { print "hello" }\n',
    echo: '{ print }\n',
    exit3: 'BEGIN { exit 3 }\n',
    crash: 'BEGIN { x = 0; print 1 / x }\n',
  },
  bash: {
    hello: 'echo hello\n',
    echo: 'cat\n',
    exit3: 'exit 3\n',
    crash: 'set -e\nno_such_command_codecalc\necho unreachable\n',
  },
  bun: {
    hello: 'const who: string = "hello";\nconsole.log(who);\n',
    echo: JS_ECHO,
    exit3: 'process.exit(3);\n',
    crash: 'throw new Error("boom");\n',
  },
  c: {
    hello: '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n',
    echo: C_ECHO,
    exit3: 'int main(void){return 3;}\n',
    crash: '#include <stdlib.h>\nint main(void){abort();}\n',
    broken: 'int main(void){ return undeclared_name; }\n',
  },
  'c++': {
    hello: '#include <iostream>\nint main(){std::cout << "hello" << std::endl;}\n',
    echo: '#include <iostream>\nint main(){std::cout << std::cin.rdbuf();}\n',
    exit3: 'int main(){return 3;}\n',
    crash: '#include <stdexcept>\nint main(){throw std::runtime_error("boom");}\n',
    broken: 'int main(){ std::string s; }\n',
  },
  csharp: {
    hello: 'class P { static void Main() { System.Console.WriteLine("hello"); } }\n',
    echo: 'class P { static void Main() { System.Console.Write(System.Console.In.ReadToEnd()); } }\n',
    exit3: 'class P { static void Main() { System.Environment.Exit(3); } }\n',
    crash: 'class P { static void Main() { throw new System.Exception("boom"); } }\n',
    broken: 'class P { static void Main() { int x = "s"; } }\n',
    slow: true,
  },
  deno: {
    hello: 'const who: string = "hello";\nconsole.log(who);\n',
    echo: DENO_ECHO,
    exit3: 'Deno.exit(3);\n',
    crash: 'throw new Error("boom");\n',
  },
  elixir: {
    hello: 'IO.puts("hello")\n',
    echo: 'IO.write(IO.read(:stdio, :eof))\n',
    exit3: 'System.halt(3)\n',
    crash: 'raise "boom"\n',
    slow: true,
  },
  erlang: {
    hello: 'main(_) -> io:format("hello~n").\n',
    echo: 'main(_) -> io:put_chars(io:get_line("")).\n',
    exit3: 'main(_) -> halt(3).\n',
    crash: 'main(_) -> erlang:error(boom).\n',
    slow: true,
  },
  fortran: {
    hello: "program hello\n  print '(a)', 'hello'\nend program hello\n",
    echo: "program echo\n  character(len=100) :: line\n  read(*,'(a)') line\n  print '(a)', trim(line)\nend program echo\n",
    exit3: 'program ex\n  stop 3\nend program ex\n',
    crash: "program crash\n  error stop 'boom'\nend program crash\n",
    broken: 'program broken\n  integer :: i\n  i = \nend program broken\n',
  },
  go: {
    hello: 'package main\nimport "fmt"\nfunc main() { fmt.Println("hello") }\n',
    echo: 'package main\nimport ("io"; "os")\nfunc main() { io.Copy(os.Stdout, os.Stdin) }\n',
    exit3: 'package main\nimport "os"\nfunc main() { os.Exit(3) }\n',
    crash: 'package main\nfunc main() { panic("boom") }\n',
    broken: 'package main\nfunc main() { x := 1 }\n',
    slow: true,
  },
  haskell: {
    hello: 'main :: IO ()\nmain = putStrLn "hello"\n',
    echo: 'main :: IO ()\nmain = interact id\n',
    exit3: 'import System.Exit\nmain :: IO ()\nmain = exitWith (ExitFailure 3)\n',
    crash: 'main :: IO ()\nmain = error "boom"\n',
    broken: 'main :: IO ()\nmain = putStrLn (1 :: Int)\n',
    slow: true,
  },
  java: {
    hello: 'public class Main { public static void main(String[] a) { System.out.println("hello"); } }\n',
    echo: 'public class Main { public static void main(String[] a) throws Exception { System.in.transferTo(System.out); } }\n',
    exit3: 'public class Main { public static void main(String[] a) { System.exit(3); } }\n',
    crash: 'public class Main { public static void main(String[] a) { throw new RuntimeException("boom"); } }\n',
    slow: true,
  },
  jq: {
    hello: '"hello"\n',
    helloOut: '"hello"\n',
    echo: 'input\n',
    exit3: '"" | halt_error(3)\n',
    crash: 'error("boom")\n',
  },
  kotlin: {
    hello: 'fun main() { println("hello") }\n',
    echo: 'fun main() { generateSequence(::readLine).forEach { println(it) } }\n',
    exit3: 'fun main() { kotlin.system.exitProcess(3) }\n',
    crash: 'fun main() { throw RuntimeException("boom") }\n',
    broken: 'fun main() { val x: Int = "s" }\n',
    slow: true,
  },
  lua: {
    hello: 'print("hello")\n',
    echo: 'io.write(io.read("a"))\n',
    exit3: 'os.exit(3)\n',
    crash: 'error("boom")\n',
  },
  node: {
    hello: 'console.log("hello");\n',
    echo: NODE_ECHO,
    exit3: 'process.exit(3);\n',
    crash: 'throw new Error("boom");\n',
  },
  perl: {
    hello: 'print "hello\\n";\n',
    echo: 'print while <STDIN>;\n',
    exit3: 'exit 3;\n',
    crash: 'die "boom\\n";\n',
  },
  php: {
    hello: '<?php echo "hello\\n";\n',
    echo: '<?php echo stream_get_contents(STDIN);\n',
    exit3: '<?php exit(3);\n',
    crash: '<?php throw new Exception("boom");\n',
  },
  python3: {
    hello: 'print("hello")\n',
    echo: 'import sys\nsys.stdout.write(sys.stdin.read())\n',
    exit3: 'import sys\nsys.exit(3)\n',
    crash: '1 / 0\n',
  },
  r: {
    hello: 'cat("hello\\n")\n',
    echo: 'x <- readLines(file("stdin"))\ncat(x, "\\n", sep = "")\n',
    exit3: 'quit(status = 3)\n',
    crash: 'stop("boom")\n',
    slow: true,
  },
  ruby: {
    hello: 'puts "hello"\n',
    echo: 'print STDIN.read\n',
    exit3: 'exit 3\n',
    crash: 'raise "boom"\n',
  },
  rust: {
    hello: 'fn main() { println!("hello"); }\n',
    echo: 'use std::io::{self, Read};\nfn main() { let mut s = String::new(); io::stdin().read_to_string(&mut s).unwrap(); print!("{}", s); }\n',
    exit3: 'fn main() { std::process::exit(3); }\n',
    crash: 'fn main() { panic!("boom"); }\n',
    broken: 'fn main() { let x: i32 = "s"; }\n',
    slow: true,
  },
  sqlite: {
    hello: "select 'hello';\n",
    echo: "select trim(cast(readfile('/dev/stdin') as text), char(10));\n",
    exit3: '.exit 3\n',
    crash: 'select * from no_such_table;\n',
  },
  tcl: {
    hello: 'puts hello\n',
    echo: 'puts -nonewline [read stdin]\n',
    exit3: 'exit 3\n',
    crash: 'error boom\n',
  },
  typescript: {
    hello: 'const who: string = "hello";\nconsole.log(who);\n',
    echo: JS_ECHO,
    exit3: 'process.exit(3);\n',
    crash: 'throw new Error("boom");\n',
  },
  zig: {
    hello: 'const std = @import("std");\npub fn main() !void {\n    try std.io.getStdOut().writer().print("hello\\n", .{});\n}\n',
    echo: 'const std = @import("std");\npub fn main() !void {\n    var buf: [256]u8 = undefined;\n    const n = try std.io.getStdIn().readAll(&buf);\n    try std.io.getStdOut().writeAll(buf[0..n]);\n}\n',
    exit3: 'const std = @import("std");\npub fn main() void {\n    std.process.exit(3);\n}\n',
    crash: 'const std = @import("std");\npub fn main() !void {\n    return error.Boom;\n}\n',
    broken: 'pub fn main() void {\n    return undeclared_name;\n}\n',
    slow: true,
  },
  zsh: {
    hello: 'echo hello\n',
    echo: 'cat\n',
    exit3: 'exit 3\n',
    crash: 'set -e\nno_such_command_codecalc\necho unreachable\n',
  },
};
// cpp is the other spelling of c++ (TOOLS.md section 7).
PROGRAMS.cpp = PROGRAMS['c++'];

/** Languages of TOOLS.md section 7 that this file has no programs for. */
export const NO_PROGRAMS = ['gleam', 'mojo', 'swift'];

export const STDIN = '42\n';

/**
 * list_languages answers a bare array, which the harness's callRaw does not
 * accept (it compares the text block with structuredContent, which MCP
 * requires to be an object); read the text block instead.
 */
export async function listLanguages(server) {
  const res = await server.client.callTool({ name: 'list_languages', arguments: {} });
  return JSON.parse(res.content[0].text);
}

/** Start n servers (separate MCP connections, separate worker pools). */
export async function startServers(n) {
  // Without a memory cgroup (a non-root server) the compile budget is an
  // address-space limit, and kotlinc's JVM cannot reserve its class space
  // under the default 2048 MiB: README "The two commands" names this setting.
  const env = hasMemoryCgroup() ? {} : { CODECALC_COMPILE_MEMORY_MB: '4096' };
  return Promise.all(Array.from({ length: n }, () => startServer({ env })));
}

/**
 * Run every job across the servers, one job at a time per server, in queue
 * order (put the slow ones first so they overlap). work(server, job) gives a
 * value; resolves to the values in job order. A job that throws yields
 * {thrown: message} instead of failing the whole batch.
 */
export async function spread(servers, jobs, work) {
  const out = new Array(jobs.length);
  let next = 0;
  await Promise.all(servers.map(async (s) => {
    while (next < jobs.length) {
      const i = next++;
      try {
        out[i] = await work(s, jobs[i]);
      } catch (e) {
        out[i] = { thrown: String(e?.message ?? e) };
      }
    }
  }));
  return out;
}
