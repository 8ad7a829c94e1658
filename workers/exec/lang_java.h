/* java's plan for a program run on many inputs (languages.h, `repeated`).
 *
 * The spec's plan runs `java {file}`: the source launcher compiles the file
 * in memory on every run, about 2 s of CPU each on this host, so a
 * verify_translation port run on the 35 default and edge inputs spent most
 * of its call in javac (and came near the 120 s deadline at load 27). This
 * plan compiles once, the way the launcher compiles (JDK 17's options
 * -proc:none -Xdiags:verbose -Xlint:deprecation -Xlint:unchecked
 * -Xlint:-options; any file name, so a public class need not match it; the
 * source read in the default charset, a "#!" first line skipped; the first
 * top-level class is the main class) into {work}/out.jar, and every run is
 * `java -jar` of that jar from the compile cache. The compiler is a small
 * Java program (written out here and run by the launcher itself) because
 * javac alone refuses a public class in a file of another name. A compile
 * error prints javac's diagnostics and "error: compilation failed", as the
 * launcher does, in the compile phase. */
#ifndef CC_LANG_JAVA_H
#define CC_LANG_JAVA_H

#define JAVA_REPEATED_COMPILE \
    "bash -c '" \
    "d=$2/ccjavac && mkdir -p \"$d\" && cat > \"$d/CcJavac.java\" <<\"CCEOF\"\n" \
    "import com.sun.source.util.*;\n" \
    "import java.io.*;\n" \
    "import java.nio.charset.Charset;\n" \
    "import java.nio.file.*;\n" \
    "import java.util.*;\n" \
    "import java.util.jar.*;\n" \
    "import javax.lang.model.SourceVersion;\n" \
    "import javax.lang.model.element.*;\n" \
    "import javax.tools.*;\n" \
    "public class CcJavac {\n" \
    "public static void main(String[] a) throws Exception {\n" \
    "Path file = Path.of(a[0]), classes = Path.of(a[1]), jar = Path.of(a[2]);\n" \
    "byte[] raw = Files.readAllBytes(file);\n" \
    "String text = new String(raw, Charset.defaultCharset());\n" \
    "if (text.startsWith(\"#!\")) {\n" \
    "int nl = text.indexOf(10);\n" \
    "text = nl < 0 ? \"\" : System.lineSeparator() + text.substring(nl + 1);\n" \
    "}\n" \
    "final String src = text;\n" \
    "JavaCompiler jc = ToolProvider.getSystemJavaCompiler();\n" \
    "StandardJavaFileManager fm = jc.getStandardFileManager(null, null, null);\n" \
    "fm.setLocation(StandardLocation.SOURCE_PATH, List.of());\n" \
    "Files.createDirectories(classes);\n" \
    "fm.setLocation(StandardLocation.CLASS_OUTPUT, List.of(classes.toFile()));\n" \
    "JavaFileObject fo = new SimpleJavaFileObject(file.toUri(), JavaFileObject.Kind.SOURCE) {\n" \
    "public String getName() { return file.toString(); }\n" \
    "public CharSequence getCharContent(boolean ignore) { return src; }\n" \
    "public boolean isNameCompatible(String name, JavaFileObject.Kind kind) {\n" \
    "return kind == JavaFileObject.Kind.SOURCE && SourceVersion.isIdentifier(name);\n" \
    "}\n" \
    "};\n" \
    "List<String> opts = List.of(\"-proc:none\", \"-Xdiags:verbose\", \"-Xlint:deprecation\",\n" \
    "\"-Xlint:unchecked\", \"-Xlint:-options\");\n" \
    "JavacTask t = (JavacTask) jc.getTask(null, fm, null, opts, null, List.of(fo));\n" \
    "String[] main = {null};\n" \
    "t.addTaskListener(new TaskListener() {\n" \
    "public void started(TaskEvent e) {\n" \
    "if (e.getKind() == TaskEvent.Kind.ANALYZE && main[0] == null\n" \
    "&& e.getTypeElement().getNestingKind() == NestingKind.TOP_LEVEL)\n" \
    "main[0] = e.getTypeElement().getQualifiedName().toString();\n" \
    "}\n" \
    "});\n" \
    "if (!t.call()) { System.err.println(\"error: compilation failed\"); System.exit(1); }\n" \
    "if (main[0] == null) { System.err.println(\"error: no class declared in source file\"); System.exit(1); }\n" \
    "Manifest m = new Manifest();\n" \
    "m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, \"1.0\");\n" \
    "m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, main[0]);\n" \
    "List<Path> files = new ArrayList<>();\n" \
    "try (var w = Files.walk(classes)) { w.filter(Files::isRegularFile).sorted().forEach(files::add); }\n" \
    "try (JarOutputStream o = new JarOutputStream(Files.newOutputStream(jar), m)) {\n" \
    "for (Path p : files) {\n" \
    "o.putNextEntry(new JarEntry(classes.relativize(p).toString().replace(File.separatorChar, (char) 47)));\n" \
    "o.write(Files.readAllBytes(p));\n" \
    "o.closeEntry();\n" \
    "}\n" \
    "}\n" \
    "}\n" \
    "}\n" \
    "CCEOF\n" \
    "exec java \"$d/CcJavac.java\" \"$1\" \"$d/classes\" \"$2/out.jar\"" \
    "' codecalc {file} {work}"

#define JAVA_REPEATED_RUN "java -jar {work}/out.jar"
#define JAVA_REPEATED_ARTIFACT "{work}/out.jar"

#endif
