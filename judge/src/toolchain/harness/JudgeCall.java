// Written by the judge: calls Solution.FUNCTION_NAME once per input line.
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.*;

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
        if (value instanceof List) {
            StringJoiner joined = new StringJoiner(", ", "[", "]");
            for (Object item : (List<?>) value) joined.add(show(item));
            return joined.toString();
        }
        if (value instanceof String) {
            String s = (String) value;
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
        }
        return String.valueOf(value);
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        ThreadMXBean clock = ManagementFactory.getThreadMXBean();
        StringBuilder out = new StringBuilder();
        StringJoiner times = new StringJoiner(",");
        Solution solution = new Solution();
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
            long start = clock.getCurrentThreadCpuTime();
            Object result = solution.FUNCTION_NAME(CALL_ARGUMENTS);
            times.add(String.valueOf((clock.getCurrentThreadCpuTime() - start) / 1000));
            out.append(show(result)).append('\n');
        }
        System.out.print(out);
        System.out.flush();
        System.err.println();
        System.err.println("CALL_TIMES_MARKER" + times);
    }
}
