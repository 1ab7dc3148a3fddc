// The okhttp-jvm strategy of perflab's dispatcher study: the study's micro workloads on the real OkHttp
// 3.13.1 Dispatcher, defined as models/dispatcher/workloads.cpp defines them, timed here with
// System.nanoTime() around the same part the C++ engine times. perflab starts one JVM per scenario run
// (`WorkloadRunner --listen SOCKET`, before it forks the runs) and each grid point's run is a session of its
// own on that Unix socket, served one at a time, one command a line, one reply a line ("ok ..." or
// "error <why>"):
//   setup WORKLOAD N MAX_REQUESTS MAX_REQUESTS_PER_HOST  build the Dispatcher, its limits and executor (untimed)
//   run                  enqueue the n calls and, except for enqueue_burst, finish them all (timed);
//                        replies "ok SECONDS CALLS EXECUTED"
//   teardown             drop the run's calls and collect the garbage (untimed)
// The JVM exits when its stdin closes. Without --listen it serves one session on stdin and stdout.
// A session's first setup warms up the JIT (see warmUpJit): C++ is compiled before it runs, Java is not.
// The first point of a workload warms it up in full; later ones reuse the compiled code, as a long-lived
// JVM would, after a few runs at their own size.
package perflab.dispatcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Dispatcher;
import okhttp3.DispatcherAccess;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public final class WorkloadRunner {
  private static final int ROUND_ROBIN_HOSTS = 10;
  // JIT warm-up: the point's own workload, repeated until WARM_UP_CALLS calls were enqueued or
  // WARM_UP_SECONDS passed, at least once. C2 compiles a method after ~10,000 invocations or loop
  // iterations, in background threads that a busy 2-core machine delays: fewer calls left the first
  // timed runs of n = 640 several times slower than the later ones.
  private static final long WARM_UP_CALLS = 200_000;
  private static final double WARM_UP_SECONDS = 3.0;
  // A later point of a workload already warmed up: its compiled code is there, but the heap and the
  // profile have not seen the point's size; a few runs at that size adapt them.
  private static final long REWARM_CALLS = 20_000;
  private static final double REWARM_SECONDS = 0.5;

  private static final Callback NEVER_CALLED = new Callback() {
    @Override public void onFailure(Call call, IOException e) {}

    @Override public void onResponse(Call call, Response response) {}
  };

  /** One run of a workload: the PR's test fixture (setup) and its timed loop (run). */
  static final class Run {
    final String workload;
    final int n;
    final RecordingExecutor executor = new RecordingExecutor();
    final Dispatcher dispatcher = new Dispatcher(executor);
    final OkHttpClient client;
    final List<Runnable> finished = new ArrayList<>();  // kept until teardown, as the C++ run keeps its calls

    Run(OkHttpClient base, String workload, int n, int maxRequests, int maxRequestsPerHost) {
      if (n < 1) throw new IllegalArgumentException("workload size n must be at least 1, got " + n);
      this.workload = workload;
      this.n = n;
      if (workload.equals("enqueue_burst")) {
        maxRequests = n;
        maxRequestsPerHost = n;
      } else if (!workload.equals("one_host_backlog") && !workload.equals("distinct_hosts")
          && !workload.equals("round_robin")) {
        throw new IllegalArgumentException("unknown dispatcher workload \"" + workload + "\"");
      }
      dispatcher.setMaxRequests(maxRequests);
      dispatcher.setMaxRequestsPerHost(maxRequestsPerHost);
      client = base.newBuilder().dispatcher(dispatcher).build();
    }

    String hostOfCall(int i) {
      switch (workload) {
        case "distinct_hosts":
          return "h" + i;
        case "round_robin":
          return "h" + (i % ROUND_ROBIN_HOSTS);
        default:
          return "a";
      }
    }

    /** The timed part; returns the calls handed to the executor. */
    long run() {
      for (int i = 0; i < n; i++) {
        client.newCall(new Request.Builder().url("http://" + hostOfCall(i) + "/" + i).build())
            .enqueue(NEVER_CALLED);
      }
      if (workload.equals("enqueue_burst")) return executor.size();
      long executed = 0;
      for (List<Runnable> started = executor.take(); !started.isEmpty(); started = executor.take()) {
        for (Runnable call : started) DispatcherAccess.finishedAsync(dispatcher, call);
        executed += started.size();
        finished.addAll(started);
      }
      return executed;
    }
  }

  private final OkHttpClient base = new OkHttpClient();
  private final Set<String> warmedUp = new HashSet<>();  // the workloads the JIT has been warmed up on
  private boolean sessionWarmedUp = false;  // this session's point has had its warm-up
  private Run run;

  private void warmUpJit(String workload, int n, int maxRequests, int maxRequestsPerHost) {
    boolean again = !warmedUp.add(workload);
    long callsWanted = again ? REWARM_CALLS : WARM_UP_CALLS;
    double secondsWanted = again ? REWARM_SECONDS : WARM_UP_SECONDS;
    long calls = 0;
    long start = System.nanoTime();
    do {
      new Run(base, workload, n, maxRequests, maxRequestsPerHost).run();
      calls += n;
    } while (calls < callsWanted && (System.nanoTime() - start) * 1e-9 < secondsWanted);
    System.gc();  // once, as a teardown does: a full collection per warm-up run took ~12 ms, 90% of a small n's warm-up
  }

  private String handle(String line) {
    String[] words = line.trim().split(" ");
    switch (words[0]) {
      case "setup": {
        if (words.length != 5) return "error setup needs WORKLOAD N MAX_REQUESTS MAX_REQUESTS_PER_HOST";
        int n = Integer.parseInt(words[2]);
        int maxRequests = Integer.parseInt(words[3]);
        int maxRequestsPerHost = Integer.parseInt(words[4]);
        if (!sessionWarmedUp) warmUpJit(words[1], n, maxRequests, maxRequestsPerHost);
        sessionWarmedUp = true;
        run = new Run(base, words[1], n, maxRequests, maxRequestsPerHost);
        return "ok";
      }
      case "run": {
        if (run == null) return "error run before setup";
        long start = System.nanoTime();
        long executed = run.run();
        long elapsed = System.nanoTime() - start;
        return "ok " + (elapsed * 1e-9) + " " + run.n + " " + executed;
      }
      case "teardown":
        run = null;
        System.gc();
        return "ok";
      default:
        return "error unknown command \"" + words[0] + "\"";
    }
  }

  /** Answers each line of `in` on `out` until the end of input. */
  private void serve(Reader in, Writer out) throws IOException {
    sessionWarmedUp = false;
    BufferedReader lines = new BufferedReader(in);
    PrintWriter replies = new PrintWriter(out, false);
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      String reply;
      try {
        reply = handle(line);
      } catch (RuntimeException | Error e) {
        reply = "error " + e;
      }
      replies.println(reply.replace('\n', ' '));
      replies.flush();
    }
    run = null;  // a session that ended without its teardown leaves nothing to the next one
  }

  /**
   * Serves the sessions of one scenario run on a Unix socket, one after the other (a session waits
   * until the one before it has ended, so no two points' runs share the JVM at once); says "ok listening"
   * on stdout once connections are accepted, and exits when stdin closes.
   */
  private void listen(String socketPath) throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socketPath));
    Thread parentWatch = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {}
      } catch (IOException e) {
        // the parent is gone either way
      }
      System.exit(0);
    });
    parentWatch.setDaemon(true);
    parentWatch.start();
    System.out.println("ok listening");
    System.out.flush();
    while (true) {
      try (SocketChannel session = server.accept()) {
        serve(Channels.newReader(session, StandardCharsets.UTF_8),
            Channels.newWriter(session, StandardCharsets.UTF_8));
      } catch (IOException e) {
        run = null;  // a session whose process was killed: the next one starts clean
      }
    }
  }

  public static void main(String[] args) throws IOException {
    WorkloadRunner runner = new WorkloadRunner();
    if (args.length == 2 && args[0].equals("--listen")) {
      runner.listen(args[1]);
    } else {
      runner.serve(new InputStreamReader(System.in, StandardCharsets.UTF_8),
          new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    }
  }
}
