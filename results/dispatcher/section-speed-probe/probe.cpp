// A probe of this machine's speed at short locked sections: an experiment (README.md beside it), not part
// of perflab's build. g++ -O2 -pthread -o probe probe.cpp
#include <algorithm>
#include <cstdio>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>
#include <time.h>
static long long now(){timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
struct Call { long v; char pad[56]; };
int main(){
  std::mutex m; std::list<std::shared_ptr<Call>> L; for(int i=0;i<64;i++) L.push_back(std::make_shared<Call>());
  std::vector<long long> moved,same; int last=-1;
  auto worker=[&](int id){ std::mt19937 g(id); std::uniform_int_distribution<int> d(100000,2000000); timespec dl; clock_gettime(CLOCK_MONOTONIC,&dl);
    std::vector<char> scratch(64<<10);
    for(int k=0;k<400;k++){ long long ns=dl.tv_nsec+d(g); dl.tv_sec+=ns/1000000000; dl.tv_nsec=ns%1000000000; clock_nanosleep(CLOCK_MONOTONIC,TIMER_ABSTIME,&dl,nullptr);
      for(size_t i=0;i<scratch.size();i+=64) scratch[i]++;   // the thread's own work between sections
      m.lock(); long long a=now(); long s=0; for(auto&x:L){s+=x->v; x->v=s;} long long b=now(); (last==id?same:moved).push_back(b-a); last=id; m.unlock(); } };
  std::vector<std::thread> ts; for(int i=0;i<8;i++)ts.emplace_back(worker,i); for(auto&t:ts)t.join();
  auto med=[](std::vector<long long> v){ if(v.empty())return 0.0; std::sort(v.begin(),v.end()); return double(v[v.size()/2]);};
  // warm walk: 440 nodes, ns per element
  std::list<std::shared_ptr<Call>> W; for(int i=0;i<440;i++) W.push_back(std::make_shared<Call>());
  std::vector<double> per; for(int r=0;r<200;r++){ long long a=now(); long s=0; for(auto&x:W){s+=x->v;x->v=s;} per.push_back(double(now()-a)/440);} std::sort(per.begin(),per.end());
  printf("moved %.0f same %.0f warm %.2f\n", med(moved), med(same), per[per.size()/2]);
}
