# Installs the SDK into a scratch prefix and builds examples/ against it as an outside project
# would (find_package(gateway)), then runs the example against an address with nothing behind
# it: it must report the error and exit 2.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/examples -B ${WORK}/build -G Ninja
                -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release
                -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${WORK}/build/health_check http://127.0.0.1:1 RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "health_check against nothing exited ${rc}, expected 2: ${err}")
endif()
message(STATUS "consumer built against the installed package and ran: ${err}")
