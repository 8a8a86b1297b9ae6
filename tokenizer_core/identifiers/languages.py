"""The languages the identifier extractor knows: keywords, builtins, file extensions, detection.

Keywords are never identifiers. Builtins (``print``, ``len``, ``console``, ``String``, ``COUNT``,
``echo``...) ARE identifiers, because a programmer writes them and a tokenizer pays for them like
any other name, but each occurrence is flagged ``builtin=True`` so a page can hide them.
Contextual keywords (TypeScript's ``type``, Java's ``var``, C#'s ``where``...) count as keywords
only where they act as one: when the next thing is a name, a string or ``{``, and they do not
follow a ``.``. ``event.type`` and ``type: string`` keep ``type`` as an identifier.
"""

from __future__ import annotations

import builtins
import keyword
import re
from dataclasses import dataclass
from pathlib import PurePosixPath


@dataclass(frozen=True, slots=True)
class CodeLanguage:
    """What the lexer needs to know about one language."""

    id: str
    name: str
    extensions: tuple[str, ...]
    keywords: frozenset[str]
    builtins: frozenset[str]
    contextual: frozenset[str] = frozenset()
    case_insensitive: bool = False  # SQL: keywords in any case
    member_names: bool = False  # a keyword right after "." is a property name (JS, TS, SQL)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_JS_KEYWORDS = """
break case catch class const continue debugger default delete do else export extends finally
for function if import in instanceof new return super switch this throw try typeof var void
while with yield let static enum await implements package protected interface private public
null true false
"""
_JS_BUILTINS = """
console window document globalThis Math JSON Object Array String Number Boolean Symbol BigInt
Promise Date RegExp Map Set WeakMap WeakSet Error TypeError RangeError SyntaxError Reflect Proxy
Intl parseInt parseFloat isNaN isFinite undefined NaN Infinity arguments require module exports
setTimeout clearTimeout setInterval clearInterval fetch encodeURIComponent decodeURIComponent
structuredClone queueMicrotask Uint8Array ArrayBuffer TextEncoder TextDecoder URL URLSearchParams
process Buffer
"""
_TS_KEYWORDS = _JS_KEYWORDS
_TS_BUILTINS = (
    _JS_BUILTINS
    + """
any unknown never string number boolean object symbol bigint Partial Required Readonly Record
Pick Omit Exclude Extract NonNullable ReturnType Parameters Awaited InstanceType Array ReadonlyArray
"""
)
# Contextual keywords (ECMAScript and TypeScript): any of these may name a variable, a parameter or
# a property (`const is = 1; function f(async) {}`); the lexer calls one a keyword only where it
# acts as one (see CLike._keyword_context). The words above are reserved in ECMAScript's strict
# mode, which every module and class body is in.
_JS_CONTEXTUAL = "of get set from as accessor async"
_TS_CONTEXTUAL = (
    _JS_CONTEXTUAL + " type namespace module satisfies override unique out"
    " abstract declare readonly is asserts keyof infer"
)

_GO_KEYWORDS = """
break case chan const continue default defer else fallthrough for func go goto if import
interface map package range return select struct switch type var
"""
_GO_BUILTINS = """
any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64
rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil append cap clear close
complex copy delete imag len make max min new panic print println real recover
"""

_RUST_KEYWORDS = """
as break const continue crate else enum extern false fn for if impl in let loop match mod move
mut pub ref return self Self static struct super trait true type unsafe use where while async
await dyn abstract become box do final macro override priv typeof unsized virtual yield try
"""
_RUST_BUILTINS = """
bool char str i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 Option Some None
Result Ok Err Vec String Box Rc Arc Cell RefCell HashMap HashSet BTreeMap Copy Clone Send Sync
Sized Drop Fn FnMut FnOnce Iterator IntoIterator ToString ToOwned Default Debug Display
PartialEq Eq PartialOrd Ord Hash From Into AsRef AsMut std core alloc println print eprintln
eprint format vec panic assert assert_eq assert_ne write writeln todo unimplemented unreachable
matches dbg macro_rules include_str env concat stringify cfg derive test allow deny warn inline
"""
_RUST_CONTEXTUAL = "union"

_JAVA_KEYWORDS = """
abstract assert boolean break byte case catch char class const continue default do double else
enum extends final finally float for goto if implements import instanceof int interface long
native new package private protected public return short static strictfp super switch
synchronized this throw throws transient try void volatile while true false null
"""
_JAVA_BUILTINS = """
String Object System Integer Long Double Float Boolean Character Byte Short Math Number Class
Void Enum Record List Map Set ArrayList LinkedList HashMap HashSet TreeMap Arrays Collections
Optional Stream Collectors Exception RuntimeException IllegalArgumentException
IllegalStateException NullPointerException IOException Override Deprecated FunctionalInterface
SuppressWarnings Thread Runnable StringBuilder Iterable Iterator Comparable Comparator
"""
_JAVA_CONTEXTUAL = "var record yield sealed permits when module exports requires opens"

_C_KEYWORDS = """
auto break case char const continue default do double else enum extern float for goto if inline
int long register restrict return short signed sizeof static struct switch typedef union
unsigned void volatile while _Bool _Complex _Imaginary _Alignas _Alignof _Atomic _Generic
_Noreturn _Static_assert _Thread_local bool true false nullptr alignas alignof constexpr
static_assert thread_local typeof typeof_unqual
"""
_C_BUILTINS = """
printf fprintf sprintf snprintf scanf sscanf puts fputs fgets getchar putchar malloc calloc
realloc free memcpy memmove memset memcmp strlen strcmp strncmp strcpy strncpy strcat strchr
strrchr strstr strdup fopen fclose fread fwrite fseek ftell fflush exit abort atoi atol strtol
strtoul qsort bsearch assert errno size_t ssize_t ptrdiff_t intptr_t uintptr_t int8_t int16_t
int32_t int64_t uint8_t uint16_t uint32_t uint64_t NULL FILE EOF stdin stdout stderr
"""
_CPP_KEYWORDS = (
    _C_KEYWORDS
    + """
and and_eq asm bitand bitor catch char8_t char16_t char32_t class compl concept const_cast
consteval constinit co_await co_return co_yield decltype delete dynamic_cast explicit export
friend mutable namespace new noexcept not not_eq operator or or_eq private protected public
reinterpret_cast requires static_cast template this throw try typeid typename using virtual
wchar_t xor xor_eq
"""
)
_CPP_BUILTINS = (
    _C_BUILTINS
    + """
std string string_view vector array map unordered_map set unordered_set pair tuple optional
variant cout cin cerr endl unique_ptr shared_ptr weak_ptr make_unique make_shared move forward
size begin end
"""
)
_CPP_CONTEXTUAL = "final override import module"

_CS_KEYWORDS = """
abstract as base bool break byte case catch char checked class const continue decimal default
delegate do double else enum event explicit extern false finally fixed float for foreach goto if
implicit in int interface internal is lock long namespace new null object operator out override
params private protected public readonly ref return sbyte sealed short sizeof stackalloc static
string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual
void volatile while get set init var async await
"""
_CS_BUILTINS = """
Console String Object Int32 Int64 Double Boolean Math List Dictionary HashSet IEnumerable
IList IDictionary Task Exception ArgumentException ArgumentNullException
InvalidOperationException DateTime TimeSpan Guid Action Func Nullable StringBuilder Linq
nameof
"""
_CS_CONTEXTUAL = """
add alias ascending by descending dynamic equals from global group into join let managed nint
notnull nuint on orderby partial record remove required scoped select unmanaged when where
with yield file
"""

_SQL_KEYWORDS = """
select from where and or not in is null as on join inner left right full outer cross natural
using group by order having limit offset fetch first next rows row only union all intersect
except distinct insert into values update set delete create table view index unique primary
key foreign references constraint check default drop alter add column rename to if exists case
when then else end between like ilike asc desc with recursive over partition window returning
begin commit rollback transaction grant revoke true false cascade restrict temporary temp
replace function procedure trigger returns return language declare exec execute for each after
before instead of schema database sequence collate any some lateral filter within escape nulls
last cast materialized conflict do nothing truncate explain analyze vacuum top
"""
_SQL_BUILTINS = """
int integer bigint smallint tinyint serial bigserial text varchar char character boolean bool
date time timestamp timestamptz interval numeric decimal real float double precision json
jsonb uuid bytea blob clob count sum avg min max coalesce nullif extract now current_date
current_time current_timestamp lower upper length substring trim round floor ceil abs concat
row_number rank dense_rank lag lead ntile first_value last_value date_trunc date_part
array_agg string_agg json_agg jsonb_agg greatest least to_char to_date generate_series
"""

_SHELL_KEYWORDS = "if then else elif fi case esac for select while until do done in function time coproc"
_SHELL_BUILTINS = """
echo printf read cd pwd export local declare typeset readonly unset shift set source eval exec
exit return test true false trap wait kill let alias unalias type hash getopts command builtin
break continue mapfile readarray pushd popd dirs shopt umask ulimit jobs bg fg disown
"""

_PY_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))

LANGUAGES: dict[str, CodeLanguage] = {
    lang.id: lang
    for lang in (
        CodeLanguage("python", "Python", ("py", "pyi", "pyw"), frozenset(keyword.kwlist), _PY_BUILTINS),
        CodeLanguage(
            "javascript", "JavaScript", ("js", "mjs", "cjs", "jsx"), _words(_JS_KEYWORDS),
            _words(_JS_BUILTINS), _words(_JS_CONTEXTUAL), member_names=True,
        ),
        CodeLanguage(
            "typescript", "TypeScript", ("ts", "tsx", "mts", "cts"), _words(_TS_KEYWORDS),
            _words(_TS_BUILTINS), _words(_TS_CONTEXTUAL), member_names=True,
        ),
        CodeLanguage("go", "Go", ("go",), _words(_GO_KEYWORDS), _words(_GO_BUILTINS)),
        CodeLanguage("rust", "Rust", ("rs",), _words(_RUST_KEYWORDS), _words(_RUST_BUILTINS), _words(_RUST_CONTEXTUAL)),
        CodeLanguage(
            "java", "Java", ("java",), _words(_JAVA_KEYWORDS), _words(_JAVA_BUILTINS), _words(_JAVA_CONTEXTUAL)
        ),
        CodeLanguage("c", "C", ("c", "h"), _words(_C_KEYWORDS), _words(_C_BUILTINS)),
        CodeLanguage(
            "cpp", "C++", ("cpp", "cc", "cxx", "hpp", "hh", "hxx", "ino"), _words(_CPP_KEYWORDS),
            _words(_CPP_BUILTINS), _words(_CPP_CONTEXTUAL),
        ),
        CodeLanguage("csharp", "C#", ("cs",), _words(_CS_KEYWORDS), _words(_CS_BUILTINS), _words(_CS_CONTEXTUAL)),
        CodeLanguage(
            "sql", "SQL", ("sql", "psql", "pgsql", "ddl"), _words(_SQL_KEYWORDS), _words(_SQL_BUILTINS),
            case_insensitive=True, member_names=True,
        ),
        CodeLanguage("shell", "Shell (bash, sh, zsh)", ("sh", "bash", "zsh", "ksh"), _words(_SHELL_KEYWORDS),
                 _words(_SHELL_BUILTINS)),
    )
}  # fmt: skip

LANGUAGE_IDS: tuple[str, ...] = tuple(LANGUAGES)
CODE_EXTENSIONS: tuple[str, ...] = tuple(e for lang in LANGUAGES.values() for e in lang.extensions)
_BY_EXTENSION = {e: lang.id for lang in LANGUAGES.values() for e in lang.extensions}


class UnknownLanguage(ValueError):
    """A language id the extractor does not know; the message lists the known ones."""


def get_language(language_id: str) -> CodeLanguage:
    """The CodeLanguage for an id: ``get_language("go").name -> 'Go'``."""
    try:
        return LANGUAGES[language_id]
    except KeyError:
        raise UnknownLanguage(
            f"unknown language {language_id!r}; choose one of {', '.join(LANGUAGE_IDS)}"
        ) from None


def language_from_filename(filename: str) -> str | None:
    """Language id from a file name's extension: ``language_from_filename("app.tsx") -> 'typescript'``.

    ``None`` for names without a known extension (``README.md``, ``Makefile``).
    """
    suffix = PurePosixPath(filename.replace("\\", "/")).suffix.lower().lstrip(".")
    return _BY_EXTENSION.get(suffix)


_SHEBANG_LANG = {
    "python": "python", "python3": "python", "python2": "python", "node": "javascript",
    "deno": "typescript", "bun": "typescript", "sh": "shell", "bash": "shell", "zsh": "shell",
    "ksh": "shell", "dash": "shell",
}  # fmt: skip

# Signals of each language, weighted. Counted per line start (re.M); a guess, never a proof.
_SIGNALS: dict[str, list[tuple[str, float]]] = {
    "python": [(r"^\s*def \w+\(.*\)\s*(->.*)?:\s*$", 3), (r"^\s*(from \w[\w.]* )?import \w", 1),
               (r"^\s*class \w+(\(.*\))?:\s*$", 3), (r"^\s*(if|elif|for|while|with|try|else)\b.*:\s*$", 1),
               (r"\bself\.", 1), (r"^\s*@\w+", 0.5), (r"\bNone\b", 1)],
    "typescript": [(r":\s*(string|number|boolean|any|unknown|void)\b", 3), (r"^\s*(export )?interface \w+", 3),
                   (r"^\s*(export )?type \w+\s*=", 3), (r"\bas const\b", 2), (r"<\w+>\(", 0.5)],
    "javascript": [(r"^\s*(const|let|var) \w+\s*=", 1.5), (r"[;{}(,]var \w+=", 1),
                   (r"=>", 1), (r"\bfunction\s*\w*\(", 1.5),
                   (r"\bconsole\.\w+\(", 2), (r"\brequire\(", 2), (r"\bexport (default|const|function)\b", 1),
                   (r"===|!==", 1.5)],
    "go": [(r"^package \w+", 5), (r"^func (\(\w+ \*?\w+\) )?\w+\(", 4), (r":=", 1), (r"\bfmt\.\w+\(", 2),
           (r"\berr != nil\b", 3), (r"^import \(", 2)],
    "rust": [(r"^\s*(pub )?fn \w+", 3), (r"\blet mut\b", 3), (r"^\s*impl\b", 3), (r"^use \w+(::\w+)+", 3),
             (r"\w+!\(", 1), (r"&mut\b|&self\b", 2), (r"->\s*(Result|Option|Self)\b", 2)],
    "java": [(r"^\s*(public|private|protected) (static )?(final )?(class|interface|enum|record) \w+", 4),
             (r"^import java\.", 5), (r"\bSystem\.out\.print", 4), (r"^\s*@Override", 3),
             (r"^package [\w.]+;", 4)],
    "csharp": [(r"^using System", 5), (r"^\s*namespace [\w.]+", 2), (r"\{ get; (private )?set; \}", 4),
               (r"\bConsole\.Write", 4), (r"\bpublic (async )?(Task|void|string|int)\b", 1.5)],
    "c": [(r"^#include\s*[<\"]", 3), (r"\bprintf\(", 1.5), (r"\bmalloc\(", 2), (r"^(int|void|static) \w+\(", 2),
          (r"->", 0.5), (r"\bstruct \w+ \{", 1)],
    "cpp": [(r"^#include\s*<(iostream|vector|string|memory|map)>", 5), (r"\bstd::", 3), (r"^\s*template\s*<", 3),
            (r"\bnamespace \w+", 1), (r"\bcout\s*<<", 3), (r"^\s*class \w+.*\{", 1)],
    "sql": [(r"^\s*select\b", 3), (r"^\s*(create|alter|drop) (table|view|index)\b", 5), (r"^\s*insert into\b", 4),
            (r"^\s*(from|where|group by|order by|left join|join)\b", 2), (r";\s*$", 0.3)],
    "shell": [(r"^\s*(if|while) \[\[? ", 4), (r"^\s*fi\s*$", 4), (r"^\s*done\s*$", 3), (r"\$\{?\w+\}?", 0.5),
              (r"^\s*(export|local) \w+=", 3), (r"^\s*echo ", 1.5), (r"\|\s*(grep|sed|awk|xargs)\b", 2)],
}  # fmt: skip
_SIGNAL_RES = {
    lang: [(re.compile(p, re.M | (re.I if lang == "sql" else 0)), w) for p, w in sigs]
    for lang, sigs in _SIGNALS.items()
}


def shebang_interpreter(line: str) -> str:
    """The program a shebang line runs: ``shebang_interpreter("#!/usr/bin/env -S python3.12") -> 'python'``."""
    words = line[2:].split()
    if not words:
        return ""
    program = words[0].rsplit("/", 1)[-1]
    if program == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        program = rest[0].rsplit("/", 1)[-1] if rest else ""
    return re.sub(r"[\d.]+$", "", program)


def guess_language(code: str, *, default: str = "python") -> tuple[str, str]:
    """Best guess of the language of pasted code, and why: ``("go", "package clause, func ...")``.

    A shebang line decides; otherwise weighted signals are counted in the first 400 lines.
    Returns `default` with the reason "no clear signal" when nothing matches. It is a guess:
    pages should let the user choose.
    """
    first = code.lstrip("\ufeff").split("\n", 1)[0]
    if first.startswith("#!"):
        interpreter = shebang_interpreter(first)
        if interpreter in _SHEBANG_LANG:
            return _SHEBANG_LANG[interpreter], f"shebang line ({first.strip()[:40]})"
    head = "\n".join(code.split("\n", 400)[:400])
    scores: dict[str, float] = {}
    for lang, sigs in _SIGNAL_RES.items():
        scores[lang] = sum(w * min(len(rx.findall(head)), 20) for rx, w in sigs)
    # TypeScript is JavaScript plus types: JavaScript signals count for TypeScript too
    if scores["typescript"] > 0:
        scores["typescript"] += scores["javascript"]
    if scores["cpp"] > 0:
        scores["cpp"] += scores["c"]
    best = max(scores, key=lambda k: scores[k])
    if scores[best] < 2:
        return default, "no clear signal"
    return best, "typical constructs of the language"


def detect_language(code: str, *, filename: str | None = None, default: str = "python") -> tuple[str, str]:
    """The language of `code` and how it was found: from the file name's extension if it has a
    known one, else from a shebang or typical constructs (`guess_language`).

    ``detect_language("x", filename="main.go") -> ("go", "from the file name main.go")``
    """
    if filename:
        lang = language_from_filename(filename)
        if lang:
            return lang, f"from the file name {filename}"
    lang, why = guess_language(code, default=default)
    if why == "no clear signal":
        return lang, f"no clear signal in the code, so {LANGUAGES[lang].name} is assumed"
    return lang, f"guessed from the code: {why}"
