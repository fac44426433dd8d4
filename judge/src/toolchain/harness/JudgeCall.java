// Written by the judge: calls Solution.FUNCTION_NAME once per input line, each time on a new
// Solution, as a new JVM per test does. Where a class of the user's file has a static field
// that can change, a class loader of the call's own defines the user's classes again, so that
// each call starts from static fields as initialised; where none has, the classes are kept
// (and the JIT's work on them).
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.*;
import java.util.function.Function;

public class JudgeCall {
    static String text;
    static int at;

    static void skip() { while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++; }

    static Object value() {
        skip();
        char c = text.charAt(at);
        if (c == '[') {
            at++;
            List<Object> list = new ArrayList<>();
            skip();
            if (text.charAt(at) == ']') { at++; return list; }
            while (true) {
                list.add(value());
                skip();
                if (text.charAt(at++) == ']') return list;
            }
        }
        if (c == '"') {
            StringBuilder s = new StringBuilder();
            at++;
            while (text.charAt(at) != '"') {
                char d = text.charAt(at++);
                if (d == '\\') {
                    char e = text.charAt(at++);
                    switch (e) {
                        case 'n': s.append('\n'); break;
                        case 't': s.append('\t'); break;
                        case 'r': s.append('\r'); break;
                        case 'b': s.append('\b'); break;
                        case 'f': s.append('\f'); break;
                        case 'u': s.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
                        default: s.append(e);
                    }
                } else s.append(d);
            }
            at++;
            return s.toString();
        }
        if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
        if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
        String number = text.substring(start, at);
        if (number.matches("-?\\d+")) return Long.parseLong(number);
        return Double.parseDouble(number);
    }

    static int asInt(Object value) { return ((Number) value).intValue(); }
    static long asLong(Object value) { return ((Number) value).longValue(); }
    static double asDouble(Object value) { return ((Number) value).doubleValue(); }
    static boolean asBoolean(Object value) { return (Boolean) value; }
    static String asString(Object value) { return (String) value; }
    // CONVERSION_HELPERS
    static String show(Object value) {
        if (value == null) return "null";
        if (value.getClass().isArray()) {
            StringJoiner joined = new StringJoiner(", ", "[", "]");
            for (int i = 0; i < java.lang.reflect.Array.getLength(value); i++)
                joined.add(show(java.lang.reflect.Array.get(value, i)));
            return joined.toString();
        }
        if (value instanceof Iterable) {
            StringJoiner joined = new StringJoiner(", ", "[", "]");
            for (Object item : (Iterable<?>) value) joined.add(show(item));
            return joined.toString();
        }
        // A StringBuilder returned for a String too, as Programmers takes it.
        if (value instanceof CharSequence) return quoted(value.toString());
        return String.valueOf(value);
    }

    /** As JSON writes a string (Python's and JavaScript's callers print the same). */
    static String quoted(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (ch < 0x20) out.append(String.format("\\u%04x", (int) ch));
                    else out.append(ch);
            }
        }
        return out.append('"').toString();
    }

    /** Defines the user's classes afresh; the JDK's and this caller's come from the parent. */
    static final class FreshLoader extends ClassLoader {
        static final Map<String, byte[]> BYTES = new HashMap<>();

        FreshLoader() { super(JudgeCall.class.getClassLoader()); }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> found = findLoadedClass(name);
                if (found == null) {
                    byte[] bytes = name.equals("JudgeCall") || name.startsWith("JudgeCall$") ? null : bytesOf(name);
                    found = bytes == null ? super.loadClass(name, false) : defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) resolveClass(found);
                return found;
            }
        }

        /** The class file of a class of the user's, read once; null for any other class. */
        static byte[] bytesOf(String name) {
            return BYTES.computeIfAbsent(name, key -> {
                String file = key.replace('.', '/') + ".class";
                java.net.URL url = JudgeCall.class.getClassLoader().getResource(file);
                if (url == null || !url.getProtocol().equals("file")) return null;
                try (InputStream in = url.openStream()) {
                    return in.readAllBytes();
                } catch (IOException e) {
                    return null;
                }
            });
        }
    }

    /** Whether a class of the user's has a static field other than a constant. */
    static boolean keepsStaticState() {
        FreshLoader probe = new FreshLoader();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            File[] files = new File(entry).listFiles((dir, name) -> name.endsWith(".class"));
            if (files == null) continue;
            for (File file : files) {
                String name = file.getName().substring(0, file.getName().length() - ".class".length());
                if (name.equals("JudgeCall") || name.startsWith("JudgeCall$")) continue;
                try {
                    for (java.lang.reflect.Field field : Class.forName(name, false, probe).getDeclaredFields()) {
                        int modifiers = field.getModifiers();
                        boolean constant = java.lang.reflect.Modifier.isFinal(modifiers)
                            && (field.getType().isPrimitive() || field.getType() == String.class);
                        if (java.lang.reflect.Modifier.isStatic(modifiers) && !constant) return true;
                    }
                } catch (Throwable unreadable) {
                    return true;
                }
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        // The results go out on the standard output the judge reads; what the file prints
        // goes to standard error, as Programmers shows it beside the result and never grades it.
        java.io.PrintStream results = System.out;
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        ThreadMXBean clock = ManagementFactory.getThreadMXBean();
        StringBuilder out = new StringBuilder();
        StringJoiner times = new StringJoiner(",");
        FreshLoader kept = keepsStaticState() ? null : new FreshLoader();
        // The times go out even when a call fails, before its stack trace: the judge holds
        // each call to the limit, the failed one too.
        try {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.trim().isEmpty()) continue;
                text = line;
                at = 0;
                List<Object> arguments = new ArrayList<>();
                while (true) {
                    skip();
                    if (at >= text.length()) break;
                    arguments.add(value());
                    skip();
                    if (at < text.length() && text.charAt(at) == ',') at++;
                }
                Object[] converted = { CALL_ARGUMENTS };
                // Accessible by hand: another loader's class is in another runtime package.
                java.lang.reflect.Constructor<?> invoker =
                    (kept != null ? kept : new FreshLoader()).loadClass("JudgeCallInvoke").getDeclaredConstructor();
                invoker.setAccessible(true);
                Function<Object[], Object> call = (Function<Object[], Object>) invoker.newInstance();
                long start = clock.getCurrentThreadCpuTime();
                Object result;
                try {
                    result = call.apply(converted);
                } finally {
                    times.add(String.valueOf((clock.getCurrentThreadCpuTime() - start) / 1000));
                }
                out.append(show(result)).append('\n');
            }
        } finally {
            results.print(out);
            results.flush();
            System.out.flush();
            System.err.println();
            System.err.println("CALL_TIMES_MARKER" + times);
        }
    }
}

/** The call itself, compiled with the user's Solution so that javac picks the method. */
class JudgeCallInvoke implements Function<Object[], Object> {
    @Override
    public Object apply(Object[] a) {
        try {
            return new Solution().FUNCTION_NAME(INVOKE_ARGUMENTS);
        } catch (Exception thrown) {
            // A method may declare a checked exception (`throws IOException`), as Programmers
            // allows: thrown, it ends the run as any other exception does.
            throw JudgeCallInvoke.<RuntimeException>unchecked(thrown);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T unchecked(Throwable thrown) throws T {
        throw (T) thrown;
    }
}
