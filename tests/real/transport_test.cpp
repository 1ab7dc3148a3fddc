// The real engine's transport pieces, on their own: what they guarantee whatever the machine's load.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <thread>

#include "sim/engines/real/deadline_sleeper.h"
#include "sim/engines/real/frame_inbox.h"
#include "sim/engines/real/loopback_socket.h"
#include "sim/engines/real/peer_process.h"
#include "sim/engines/real/shaped_link.h"
#include "sim/engines/real/token_bucket.h"

namespace perflab::real {
namespace {

constexpr std::int64_t kMs = 1'000'000;

TEST(DeadlineSleeper, NeverWakesBeforeTheDeadlineAndRecordsHowLate) {
  DeadlineSleeper sleeper;
  for (int i = 0; i < 5; ++i) {
    std::int64_t deadline = monotonic_ns() + 2 * kMs;
    sleeper.sleep_until(deadline);
    EXPECT_GE(monotonic_ns(), deadline);
  }
  sleeper.sleep_until(monotonic_ns() - kMs);  // already passed: no sleep, not counted
  OversleepStats stats = sleeper.stats();
  EXPECT_EQ(stats.sleeps, 5u);
  EXPECT_GE(stats.total_ns, 0);
  EXPECT_GE(stats.max_ns, stats.total_ns / 5);
}

TEST(TokenBucket, WithoutBurstSerializesBackToBackMessages) {
  TokenBucket bucket(1e6, 0);                         // 1 MB/s: a byte a microsecond
  EXPECT_EQ(bucket.take(1000, 0), 1'000'000);         // 1000 bytes: 1 ms
  EXPECT_EQ(bucket.take(1000, 0), 2'000'000);         // queued behind the first
  EXPECT_EQ(bucket.take(500, 10 * kMs), 10'500'000);  // idle link: starts at once
}

TEST(TokenBucket, BurstLetsTheFirstBytesThroughAtOnce) {
  TokenBucket bucket(1e6, 2000);
  EXPECT_EQ(bucket.take(1500, 0), 0);
  EXPECT_EQ(bucket.take(1500, 0), 1'000'000);  // 1000 bytes of debt
}

TEST(LoopbackSocket, ListensOnLoopbackOnlyAndCarriesFramesWhole) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok()) << listener.status().message();
  sockaddr_in address{};
  socklen_t length = sizeof address;
  ASSERT_EQ(getsockname(listener->fd.get(), reinterpret_cast<sockaddr*>(&address), &length), 0);
  EXPECT_EQ(ntohl(address.sin_addr.s_addr), INADDR_LOOPBACK);

  auto client = connect_loopback(listener->port);
  ASSERT_TRUE(client.ok()) << client.status().message();
  auto server = accept_connection(*listener, 5000);
  ASSERT_TRUE(server.ok()) << server.status().message();
  std::string big(3 << 20, 'x');  // larger than the socket buffers: written while the peer reads
  std::thread writer([&] { EXPECT_TRUE(send_frame(client->get(), Frame{7, 42, 99, big}).ok()); });
  auto frame = receive_frame(server->get(), 5000);
  writer.join();
  ASSERT_TRUE(frame.ok()) << frame.status().message();
  ASSERT_TRUE(frame->has_value());
  EXPECT_EQ((*frame)->kind, 7u);
  EXPECT_EQ((*frame)->id, 42u);
  EXPECT_EQ((*frame)->due_ns, 99);
  EXPECT_EQ((*frame)->payload, big);

  client.value().reset();  // a clean close between frames: no frame, no error
  auto end = receive_frame(server->get(), 5000);
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST(LoopbackSocket, ASilentPeerIsAnErrorAfterTheIdleTimeout) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok());
  auto client = connect_loopback(listener->port);
  auto server = accept_connection(*listener, 5000);
  ASSERT_TRUE(server.ok());
  auto frame = receive_frame(server->get(), 50);
  ASSERT_FALSE(frame.ok());
  EXPECT_NE(frame.status().message().find("no data from the peer"), std::string::npos);
}

TEST(LoopbackSocket, NoConnectionIsAnErrorAfterTheTimeout) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok());
  auto accepted = accept_connection(*listener, 50);
  ASSERT_FALSE(accepted.ok());
  EXPECT_NE(accepted.status().message().find("no connection"), std::string::npos);
}

TEST(ShapedLink, AMessageIsNotSeenBeforeItsLatencyAndTransferTime) {
  auto listener = listen_loopback();
  ASSERT_TRUE(listener.ok());
  auto client = connect_loopback(listener->port);
  auto server = accept_connection(*listener, 5000);
  ASSERT_TRUE(client.ok() && server.ok());
  NetworkSpec network;
  network.latency = Distribution::constant(0.005, Quantity::kDuration);
  network.bandwidth = 1e6;
  DeadlineSleeper sender_sleeper, receiver_sleeper;
  ShapedLink sender(std::move(client).value(), network, Rng(1), sender_sleeper);
  ShapedLink receiver(std::move(server).value(), network, Rng(2), receiver_sleeper);
  std::int64_t sent = monotonic_ns();
  ASSERT_TRUE(sender.send(1, 1, std::string(10'000 - Frame::kHeaderBytes, 'y')).ok());
  auto frame = receiver.receive(5000);
  ASSERT_TRUE(frame.ok() && frame->has_value());
  // 5 ms of latency and 10,000 bytes at 1 MB/s: 15 ms at the earliest.
  EXPECT_GE(monotonic_ns() - sent, 15 * kMs);
  EXPECT_EQ(receiver_sleeper.stats().sleeps, 1u);
}

// Two connected sockets: `near` is read by a FrameInbox, `far` written with send_frame.
struct SocketPair {
  UniqueFd near, far;
};
SocketPair connected_pair() {
  auto listener = listen_loopback();
  auto far = connect_loopback(listener->port);
  auto near = accept_connection(*listener, 5000);
  EXPECT_TRUE(far.ok() && near.ok());
  return {std::move(near).value(), std::move(far).value()};
}

// The reactor's I/O pass: frames from several links due at the same instant come out of one next().
TEST(FrameInbox, FramesDueTogetherArriveInOnePassAndLaterOnesInTheirOwn) {
  SocketPair a = connected_pair(), b = connected_pair();
  auto inbox = FrameInbox::create();
  ASSERT_TRUE(inbox.ok()) << inbox.status().message();
  ASSERT_TRUE(inbox.value().add(0, a.near.get()).ok());
  ASSERT_TRUE(inbox.value().add(1, b.near.get()).ok());
  const std::int64_t due = monotonic_ns() + 200 * kMs;  // far enough for a loaded machine
  ASSERT_TRUE(send_frame(a.far.get(), Frame{1, 1, due, "a1"}).ok());
  ASSERT_TRUE(send_frame(b.far.get(), Frame{1, 2, due, "b1"}).ok());
  ASSERT_TRUE(send_frame(a.far.get(), Frame{1, 3, due + 50 * kMs, "a2"}).ok());

  auto nothing = inbox.value().next(/*block=*/false, 1000);  // received, but not due yet
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->empty());
  auto first = inbox.value().next(/*block=*/true, 1000);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_GE(monotonic_ns(), due);
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[0].frame->payload, "a1");
  EXPECT_EQ((*first)[1].frame->payload, "b1");
  auto second = inbox.value().next(/*block=*/true, 1000);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ((*second)[0].frame->payload, "a2");
  EXPECT_GE(monotonic_ns(), due + 50 * kMs);
  EXPECT_LE(inbox.value().oversleep().sleeps, 2u);  // a wake-up per pass that waited
}

// A link that ends is reported once, after the frames it sent before it ended; a silent inbox times out.
TEST(FrameInbox, ALinkThatEndsIsReportedAfterItsFramesAndSilenceIsAnError) {
  SocketPair a = connected_pair();
  auto inbox = FrameInbox::create();
  ASSERT_TRUE(inbox.ok());
  ASSERT_TRUE(inbox.value().add(3, a.near.get()).ok());
  ASSERT_TRUE(send_frame(a.far.get(), Frame{1, 1, monotonic_ns() + 5 * kMs, "last words"}).ok());
  a.far.reset();
  std::vector<Arrival> seen;
  for (int i = 0; i < 3 && seen.size() < 2; ++i) {
    auto arrivals = inbox.value().next(/*block=*/true, 1000);
    ASSERT_TRUE(arrivals.ok()) << arrivals.status().message();
    seen.insert(seen.end(), arrivals->begin(), arrivals->end());
  }
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].link, 3);
  EXPECT_EQ(seen[0].frame->payload, "last words");
  EXPECT_FALSE(seen[1].frame.has_value());
  EXPECT_NE(seen[1].ended.find("closed"), std::string::npos) << seen[1].ended;

  auto silent = inbox.value().next(/*block=*/true, 50);
  ASSERT_FALSE(silent.ok());
  EXPECT_NE(silent.status().message().find("nothing arrived"), std::string::npos);
}

TEST(PeerProcess, ReportsHowThePeerEnded) {
  auto clean = PeerProcess::spawn("perflab-test", [] { return 0; });
  ASSERT_TRUE(clean.ok());
  EXPECT_TRUE(clean.value().wait(5000).ok());

  auto failing = PeerProcess::spawn("perflab-test", [] { return 3; });
  ASSERT_TRUE(failing.ok());
  EXPECT_EQ(failing.value().wait(5000).message(), "exited with status 3");

  auto killed = PeerProcess::spawn("perflab-test", [] {
    raise(SIGKILL);
    return 0;
  });
  ASSERT_TRUE(killed.ok());
  EXPECT_NE(killed.value().wait(5000).message().find("killed by signal 9"), std::string::npos);
}

TEST(PeerProcess, AHungPeerIsKilledAtTheTimeout) {
  auto hung = PeerProcess::spawn("perflab-test", [] {
    pause();
    return 0;
  });
  ASSERT_TRUE(hung.ok());
  pid_t pid = hung.value().pid();
  EXPECT_NE(hung.value().wait(50).message().find("killed"), std::string::npos);
  EXPECT_NE(kill(pid, 0), 0);  // reaped: no such process
}

}  // namespace
}  // namespace perflab::real
