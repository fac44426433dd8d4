// Written by the judge: calls Solution().FUNCTION_NAME once per input line.
import java.lang.management.ManagementFactory

private class JudgeCallReader(val text: String) {
    var at = 0
    fun skip() { while (at < text.length && text[at].isWhitespace()) at++ }
    fun value(): Any? {
        skip()
        val c = text[at]
        if (c == '[') {
            at++
            val list = ArrayList<Any?>()
            skip()
            if (text[at] == ']') { at++; return list }
            while (true) {
                list.add(value())
                skip()
                if (text[at++] == ']') return list
            }
        }
        if (c == '"') {
            val s = StringBuilder()
            at++
            while (text[at] != '"') {
                val d = text[at++]
                if (d == '\\') {
                    val e = text[at++]
                    when (e) {
                        'n' -> s.append('\n')
                        't' -> s.append('\t')
                        'u' -> { s.append(text.substring(at, at + 4).toInt(16).toChar()); at += 4 }
                        else -> s.append(e)
                    }
                } else s.append(d)
            }
            at++
            return s.toString()
        }
        if (text.startsWith("true", at)) { at += 4; return true }
        if (text.startsWith("false", at)) { at += 5; return false }
        val start = at
        while (at < text.length && "+-0123456789.eE".indexOf(text[at]) >= 0) at++
        val number = text.substring(start, at)
        return number.toLongOrNull() ?: number.toDouble()
    }
}

private fun judgeCallShow(value: Any?): String = when (value) {
    null -> "null"
    is String -> "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\""
    is IntArray -> value.joinToString(", ", "[", "]")
    is LongArray -> value.joinToString(", ", "[", "]")
    is DoubleArray -> value.joinToString(", ", "[", "]")
    is BooleanArray -> value.joinToString(", ", "[", "]")
    is Array<*> -> value.joinToString(", ", "[", "]") { judgeCallShow(it) }
    is Iterable<*> -> value.joinToString(", ", "[", "]") { judgeCallShow(it) }
    else -> value.toString()
}

fun main() {
    val clock = ManagementFactory.getThreadMXBean()
    val out = StringBuilder()
    val times = ArrayList<Long>()
    while (true) {
        val line = readLine() ?: break
        if (line.isBlank()) continue
        val reader = JudgeCallReader(line)
        val arguments = ArrayList<Any?>()
        while (true) {
            reader.skip()
            if (reader.at >= line.length) break
            arguments.add(reader.value())
            reader.skip()
            if (reader.at < line.length && line[reader.at] == ',') reader.at++
        }
        val start = clock.currentThreadCpuTime
        // A new Solution per call, as Programmers makes one per test.
        val result = Solution().FUNCTION_NAME(CALL_ARGUMENTS)
        times.add((clock.currentThreadCpuTime - start) / 1000)
        out.append(judgeCallShow(result)).append('\n')
    }
    print(out)
    System.out.flush()
    System.err.println()
    System.err.println("CALL_TIMES_MARKER" + times.joinToString(","))
}
