// The differential test's oracle (tests/dispatcher/okhttp_differential_test.cpp): one real OkHttp 3.13.1
// Dispatcher with a recording executor, driven op by op over stdin/stdout. Commands, one a line:
//   enqueue HOST NAME WS   client.newCall(...).enqueue(callback); WS = 1 makes it a WebSocket call
//   finish NAME            the running async call NAME is done: Dispatcher.finished(AsyncCall)
//   cancel NAME            Call.cancel() (the call keeps its place and its slot)
//   exec NAME / finish_sync NAME   a synchronous call starts / ends (host "s")
//   max N / perhost N      setMaxRequests / setMaxRequestsPerHost
//   reject 0|1             the executor refuses calls from now on (1) or accepts them (0)
//   reset                  start again with a new Dispatcher (replies "ok")
// After each command one reply line, fields separated by '|', names by ' ':
//   ok|<calls handed to the executor since the last reply>|<calls failed since the last reply>
//     |<ready calls>|<running async calls>|<running sync calls>|<idle callbacks so far>
// or "error <why>".
package perflab.dispatcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Dispatcher;
import okhttp3.DispatcherAccess;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

public final class DifferentialDriver {
  private final RecordingExecutor executor = new RecordingExecutor();
  private final Dispatcher dispatcher = new Dispatcher(executor);
  private final OkHttpClient client = new OkHttpClient.Builder().dispatcher(dispatcher).build();
  private final Map<String, Call> calls = new HashMap<>();
  private final Map<Call, String> names = new IdentityHashMap<>();
  private final Map<String, Runnable> handedOut = new HashMap<>();  // name -> the AsyncCall executed
  private final List<String> failed = new ArrayList<>();
  private int idleCallbacks = 0;

  private final Callback recordFailure = new Callback() {
    @Override public void onFailure(Call call, IOException e) {
      failed.add(names.get(call));
    }

    @Override public void onResponse(Call call, Response response) {}
  };

  DifferentialDriver() {
    dispatcher.setIdleCallback(() -> idleCallbacks++);
  }

  private Call newCall(String host, String name, boolean webSocket) {
    Request request = new Request.Builder().url("http://" + host + "/" + name).build();
    Call call = webSocket ? DispatcherAccess.newWebSocketCall(client, request) : client.newCall(request);
    calls.put(name, call);
    names.put(call, name);
    return call;
  }

  private Call callNamed(String name) {
    Call call = calls.get(name);
    if (call == null) throw new IllegalArgumentException("no call named " + name);
    return call;
  }

  private void apply(String[] words) {
    switch (words[0]) {
      case "enqueue":
        newCall(words[1], words[2], words[3].equals("1")).enqueue(recordFailure);
        break;
      case "finish": {
        Runnable asyncCall = handedOut.get(words[1]);
        if (asyncCall == null) throw new IllegalArgumentException(words[1] + " was never executed");
        DispatcherAccess.finishedAsync(dispatcher, asyncCall);
        break;
      }
      case "cancel":
        callNamed(words[1]).cancel();
        break;
      case "exec":
        DispatcherAccess.executed(dispatcher, newCall("s", words[1], false));
        break;
      case "finish_sync":
        DispatcherAccess.finishedSync(dispatcher, callNamed(words[1]));
        break;
      case "max":
        dispatcher.setMaxRequests(Integer.parseInt(words[1]));
        break;
      case "perhost":
        dispatcher.setMaxRequestsPerHost(Integer.parseInt(words[1]));
        break;
      case "reject":
        executor.rejecting = words[1].equals("1");
        break;
      default:
        throw new IllegalArgumentException("unknown command \"" + words[0] + "\"");
    }
  }

  private String join(List<String> list) {
    return String.join(" ", list);
  }

  private String state() {
    List<String> accepted = new ArrayList<>();
    for (Runnable asyncCall : executor.take()) {
      String name = names.get(DispatcherAccess.callOf(asyncCall));
      handedOut.put(name, asyncCall);
      accepted.add(name);
    }
    List<String> ready = new ArrayList<>();
    for (Call call : dispatcher.queuedCalls()) ready.add(names.get(call));
    // runningCalls() lists the synchronous calls first, then the async ones in promotion order.
    List<String> running = new ArrayList<>();
    List<String> sync = new ArrayList<>();
    for (Call call : dispatcher.runningCalls()) {
      String name = names.get(call);
      (handedOut.containsKey(name) ? running : sync).add(name);
    }
    String reply = "ok|" + join(accepted) + "|" + join(failed) + "|" + join(ready) + "|" + join(running)
        + "|" + join(sync) + "|" + idleCallbacks;
    failed.clear();
    return reply;
  }

  public static void main(String[] args) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    DifferentialDriver driver = new DifferentialDriver();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String reply;
      try {
        if (line.trim().equals("reset")) {
          driver = new DifferentialDriver();
          reply = "ok";
        } else {
          driver.apply(line.trim().split(" "));
          reply = driver.state();
        }
      } catch (RuntimeException | Error e) {
        reply = "error " + e;
      }
      out.println(reply.replace('\n', ' '));
      out.flush();
    }
  }
}
