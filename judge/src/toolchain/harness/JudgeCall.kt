// Written by the judge: calls Solution().FUNCTION_NAME once per input line, each time on a new
// Solution, as a new JVM per test does. Where a class of the user's file has a static field
// that can change (a top-level `var` of the file's `...Kt` class, an `object`'s INSTANCE and
// properties, a companion object), a class loader of the call's own defines the user's classes
// again, so that each call starts from them as initialised; where none has, the classes are
// kept (and the JIT's work on them).
import java.io.File
import java.lang.management.ManagementFactory
import java.lang.reflect.Modifier
import java.util.function.Function

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
                        'r' -> s.append('\r')
                        'b' -> s.append('\b')
                        'f' -> s.append('\u000c')
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

/** As JSON writes a string (Python's and JavaScript's callers print the same). */
private fun judgeCallQuoted(s: String): String {
    val out = StringBuilder("\"")
    for (ch in s) {
        when (ch) {
            '"' -> out.append("\\\"")
            '\\' -> out.append("\\\\")
            '\n' -> out.append("\\n")
            '\r' -> out.append("\\r")
            '\t' -> out.append("\\t")
            '\b' -> out.append("\\b")
            '\u000c' -> out.append("\\f")
            else -> if (ch < ' ') out.append(String.format("\\u%04x", ch.toInt())) else out.append(ch)
        }
    }
    return out.append('"').toString()
}

private fun judgeCallShow(value: Any?): String = when (value) {
    null -> "null"
    is CharSequence -> judgeCallQuoted(value.toString())
    is IntArray -> value.joinToString(", ", "[", "]")
    is LongArray -> value.joinToString(", ", "[", "]")
    is DoubleArray -> value.joinToString(", ", "[", "]")
    is BooleanArray -> value.joinToString(", ", "[", "]")
    is Array<*> -> value.joinToString(", ", "[", "]") { judgeCallShow(it) }
    is Iterable<*> -> value.joinToString(", ", "[", "]") { judgeCallShow(it) }
    else -> value.toString()
}

/** Whether `name` is one of this caller's classes, which every call shares. */
private fun judgeCallOwn(name: String): Boolean =
    name.substringBefore('$') in setOf("JudgeCallKt", "JudgeCallReader", "JudgeCallLoader", "JudgeCallFiles")

/** Defines the user's classes afresh; the JDK's, Kotlin's and this caller's come from the parent. */
private class JudgeCallLoader(private val files: JudgeCallFiles) : ClassLoader(files.parent) {
    override fun loadClass(name: String, resolve: Boolean): Class<*> {
        synchronized(getClassLoadingLock(name)) {
            var found = findLoadedClass(name)
            if (found == null) {
                val bytes = files.bytesOf(name)
                found = if (bytes == null) super.loadClass(name, false) else defineClass(name, bytes, 0, bytes.size)
            }
            if (resolve) resolveClass(found)
            return found!!
        }
    }
}

/** The user's class files: those beside this caller's, each read once, at the start. */
private class JudgeCallFiles {
    val parent: ClassLoader = JudgeCallLoader::class.java.classLoader
    val bytes: Map<String, ByteArray> = run {
        val own = parent.getResource("JudgeCallKt.class")
        val folder = if (own != null && own.protocol == "file") File(own.toURI()).parentFile else null
        (folder?.listFiles() ?: emptyArray())
            .filter { it.name.endsWith(".class") && !judgeCallOwn(it.name.removeSuffix(".class")) }
            .associate { it.name.removeSuffix(".class") to it.readBytes() }
    }

    /** The class file of a class of the user's; null for any other class. */
    fun bytesOf(name: String): ByteArray? = bytes[name]

    /**
     * Whether a class of the user's has a static field that can hold state: one that is not
     * final, or final but holding an object that can change. Kotlin's singletons hold none by
     * themselves: an `object`'s INSTANCE, a `Companion`, a lambda's INSTANCE are objects of a
     * final class without fields of their own (their properties are static fields, checked
     * on their own).
     */
    fun keepStaticState(): Boolean {
        val probe = JudgeCallLoader(this)
        for (name in bytes.keys) {
            try {
                for (field in Class.forName(name, false, probe).declaredFields) {
                    if (!Modifier.isStatic(field.modifiers)) continue
                    if (!Modifier.isFinal(field.modifiers) || !unchanging(field.type)) return true
                }
            } catch (unreadable: Throwable) {
                return true
            }
        }
        return false
    }

    /** Whether an object of `type` can never change: a primitive, a String, or an object of a
     * final class whose fields, its own and inherited, are all final primitives or Strings. */
    private fun unchanging(type: Class<*>): Boolean {
        if (type.isPrimitive || type == String::class.java) return true
        if (type.isArray || type.isInterface || !Modifier.isFinal(type.modifiers)) return false
        var level: Class<*>? = type
        while (level != null) {
            for (field in level.declaredFields) {
                if (Modifier.isStatic(field.modifiers)) continue
                val plain = field.type.isPrimitive || field.type == String::class.java
                if (!Modifier.isFinal(field.modifiers) || !plain) return false
            }
            level = level.superclass
        }
        return true
    }
}

fun main() {
    // The results go out on the standard output the judge reads; what the file prints goes to
    // standard error, as Programmers shows it beside the result and never grades it.
    val results = System.out
    System.setOut(System.err)
    val clock = ManagementFactory.getThreadMXBean()
    val out = StringBuilder()
    val times = ArrayList<Long>()
    val files = JudgeCallFiles()
    val kept = if (files.keepStaticState()) null else JudgeCallLoader(files)
    // The times go out even when a call fails, before its stack trace: the judge holds each
    // call to the limit, the failed one too.
    try {
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
            val converted = arrayOf<Any?>(CALL_ARGUMENTS)
            // Accessible by hand: another loader's class is in another runtime package.
            val invoker = (kept ?: JudgeCallLoader(files)).loadClass("JudgeCallInvoke").getDeclaredConstructor()
            invoker.isAccessible = true
            @Suppress("UNCHECKED_CAST")
            val call = invoker.newInstance() as Function<Array<Any?>, Any?>
            val start = clock.currentThreadCpuTime
            val result = try {
                call.apply(converted)
            } finally {
                times.add((clock.currentThreadCpuTime - start) / 1000)
            }
            out.append(judgeCallShow(result)).append('\n')
        }
    } finally {
        results.print(out)
        results.flush()
        System.out.flush()
        System.err.println()
        System.err.println("CALL_TIMES_MARKER" + times.joinToString(","))
    }
}

/** The call itself, compiled with the user's Solution so that kotlinc picks the function. */
@Suppress("UNCHECKED_CAST")
class JudgeCallInvoke : Function<Array<Any?>, Any?> {
    // A new Solution per call, as Programmers makes one per test.
    override fun apply(a: Array<Any?>): Any? = Solution().FUNCTION_NAME(INVOKE_ARGUMENTS)
}
