// One binary for every node: moe-probe links neither libcuda nor libnccl, and runs the
// tcp backend (and --inventory) on a machine that has neither library.
#include "probe_launcher.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QProcessEnvironment>

using namespace probetest;

namespace {

QProcessEnvironment environmentWithoutGpuPaths() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* var : {"LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "LD_PRELOAD"})
        env.remove(QString::fromLatin1(var));
    return env;
}

// Runs a shell command line; returns exit code, output in out.
int runShell(const QString& command, QByteArray& out, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/bin/sh"), {"-c", command});
    if (!p.waitForFinished(30000))
        return -1;
    out = p.readAll();
    return p.exitCode();
}

} // namespace

class TestProbeWithoutGpuLibs : public QObject {
    Q_OBJECT
private slots:
    void lddShowsNeitherCudaNorNccl() {
        QByteArray out;
        QCOMPARE(runShell("ldd '" + probePath() + "'", out, environmentWithoutGpuPaths()), 0);
        QVERIFY2(!out.contains("libcuda"), out.constData());
        QVERIFY2(!out.contains("libnccl"), out.constData());
        QVERIFY2(!out.contains("libQt"), out.constData());
        QVERIFY2(!out.contains("libcudart"), out.constData());
    }

    void tcpRunLoadsNoGpuLibrary() {
        // LD_DEBUG lists every library the loader opens, including dlopen()ed ones.
        QProcessEnvironment env = environmentWithoutGpuPaths();
        env.insert("LD_DEBUG", "libs");
        QByteArray out;
        const int rc = runShell("'" + probePath() + "' -b 4K -e 16K -n 2 -w 1 -c 1", out, env);
        QVERIFY2(rc == 0, out.constData());
        QVERIFY2(!out.contains("libnccl"), out.constData());
        QVERIFY2(!out.contains("libcuda"), out.constData());
        QVERIFY(out.contains("Out of bounds values : 0 OK"));
    }

    void runsWhereNoCudaOrNcclExists() {
        // A private mount namespace hides the CUDA toolkit; skipped where unshare is not allowed.
        QByteArray out;
        const QProcessEnvironment env = environmentWithoutGpuPaths();
        if (runShell("unshare -m sh -c 'mount -t tmpfs none /usr/local 2>/dev/null && echo hidden'", out,
                     env) != 0 ||
            !out.contains("hidden"))
            QSKIP("no mount namespace here (unshare -m needs CAP_SYS_ADMIN)");
        // The binary may live under /usr/local; run a copy from a directory that stays visible.
        QTemporaryDir dir;
        QVERIFY(QFile::copy(probePath(), dir.filePath("moe-probe")));
        QFile script(dir.filePath("hidden.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(
            "set -e\n"
            "mount -t tmpfs none /usr/local\n"
            "for f in $(ldconfig -p | awk '/libnccl|libcuda[.]so/ {print $NF}'); do test ! -e \"$f\"; done\n"
            "d=$(dirname \"$0\")\n"
            "\"$d/moe-probe\" --inventory > \"$d/inv.json\"\n"
            "\"$d/moe-probe\" -b 4K -e 64K -f 4 -n 3 -w 1 -c 1 > \"$d/table.txt\"\n"
            "cat \"$d/inv.json\"; echo ===; cat \"$d/table.txt\"\n");
        script.close();
        const int rc = runShell("unshare -m sh '" + script.fileName() + "'", out, env);
        QVERIFY2(rc == 0, out.constData());
        const QByteArray inventory = out.left(out.indexOf("==="));
        const QJsonObject inv = QJsonDocument::fromJson(inventory).object();
        QVERIFY2(!inv.isEmpty(), out.constData());
        QVERIFY(inv.value("nccl").isNull());
        QCOMPARE(inv.value("gpus").toArray().size(), 0);
        QCOMPARE(inv.value("driver").toObject().value("loaded").toBool(), false);
        QVERIFY(out.contains("Out of bounds values : 0 OK"));
    }

    void ncclBackendExplainsWhatIsMissing() {
        QProcess p;
        p.setProcessEnvironment(environmentWithoutGpuPaths());
        p.start(probePath(), {"--backend", "nccl", "-b", "1K", "-e", "1K"});
        QVERIFY(p.waitForFinished(30000));
        const QByteArray err = p.readAllStandardError();
#ifdef MOEWB_PROBE_HAVE_NCCL
        QByteArray out;
        runShell("ldconfig -p | grep -c 'libcuda.so.1'", out, environmentWithoutGpuPaths());
        if (out.trimmed() != "0")
            QSKIP("this machine has a CUDA driver; the GPU script covers the nccl backend");
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains("libcuda.so.1"), err.constData());
#else
        QCOMPARE(p.exitCode(), 3);
        QVERIFY2(err.contains("built without the nccl backend"), err.constData());
#endif
    }

    void inventoryIsJsonWithNodeFacts() {
        QProcess p;
        p.setProcessEnvironment(environmentWithoutGpuPaths());
        p.start(probePath(), {"--inventory", "--nccl-lib", "/nonexistent/libnccl.so.2"});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject inv = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(inv.value("schema").toString(), QStringLiteral("moe-probe-inventory/1"));
        QVERIFY(!inv.value("hostname").toString().isEmpty());
        QVERIFY(inv.value("cpu").toObject().value("logical_cpus").toInt() >= 1);
        QVERIFY(inv.value("memory_bytes").toDouble() > 0);
        QVERIFY(inv.value("nics").isArray());
        QVERIFY(inv.value("nccl").isNull()); // an explicit --nccl-lib is final, no fallback
    }

    void bundleManifestMatchesItsFiles() {
        const QDir bundle(QStringLiteral(MOEWB_PROBE_BUNDLE_DIR));
        const QJsonObject manifest = readJsonObject(bundle.filePath("manifest.json"));
        QCOMPARE(manifest.value("schema").toString(), QStringLiteral("moe-probe-bundle/1"));
        QCOMPARE(manifest.value("probe_schema").toString(), QStringLiteral("moe-probe/2"));
        QVERIFY(!manifest.value("version").toString().isEmpty());
        const QJsonArray files = manifest.value("files").toArray();
        QVERIFY(!files.isEmpty());
        QCOMPARE(files[0].toObject().value("name").toString(), QStringLiteral("moe-probe"));
        for (const QJsonValue& v : files) {
            const QJsonObject f = v.toObject();
            QFile file(bundle.filePath(f.value("name").toString()));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            QCOMPARE(file.size(), f.value("bytes").toInteger());
            QCryptographicHash sha(QCryptographicHash::Sha256);
            QVERIFY(sha.addData(&file));
            QCOMPARE(QString::fromLatin1(sha.result().toHex()), f.value("sha256").toString());
        }
        // The bundled probe runs (it is a stripped copy of the built one).
        QProcess p;
        p.start(bundle.filePath("moe-probe"), {"--version"});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestProbeWithoutGpuLibs)
#include "test_probe_without_gpu_libs.moc"
