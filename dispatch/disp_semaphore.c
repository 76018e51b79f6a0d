/*
 * dispatch/disp_semaphore.c — binary semaphores (cl_khr_semaphore 1.0): creation,
 * retain/release, queries, and the wait and signal commands.
 *
 * A semaphore is built on the event core, not on a signal of its own: a signal command is a
 * host command that completes after its wait list (and its queue's order) and then marks the
 * semaphore signaled; a wait command is a host command whose dependencies are its wait list
 * and the signal that will have signaled the semaphore, and which marks it unsignaled when
 * it completes. The pairing is made at enqueue time, in enqueue order, under the
 * semaphore's lock:
 *   - a signal with no wait waiting for it leaves its event as the semaphore's `signal`;
 *     the next wait takes it as a dependency;
 *   - a wait with no signal to take gets a driver-made user event as the semaphore's
 *     `waiter`; the next signal completes that event when it completes (or fails it when
 *     the signal fails), which releases the wait.
 * So both entry points return with the semaphore safe to signal (wait) again, as the
 * extension requires, without blocking. Waiting twice or signaling twice without the other
 * in between is undefined behaviour (the extension); here the second wait waits for the
 * next signal and a second signal replaces the first as the one the next wait takes.
 * No external handle types.
 */
#include "dispatch/disp.h"
#include "dispatch/disp_priv.h"
#include "platform/plat.h"

#include <string.h>

struct _cl_semaphore_khr {
   struct icd_object obj;
   struct _cl_context *context;  /* internal reference */
   struct _cl_device_id *device; /* the one device it is associated with */
   cl_semaphore_properties_khr *props; /* as given, 0-terminated */
   size_t num_props;
   pthread_mutex_t lock;
   struct _cl_event *signal; /* the last signal no wait took yet (internal reference) */
   struct _cl_event *waiter; /* what the last wait with no signal waits for (API ref) */
   atomic_uint payload;      /* 1 signaled, 0 not (CL_SEMAPHORE_PAYLOAD_KHR) */
};

ICD_DEFINE_HANDLE_CASTS(sema, struct _cl_semaphore_khr, cl_semaphore_khr, ICD_TYPE_SEMAPHORE)

static void
sema_destroy(struct _cl_semaphore_khr *s)
{
   if (s->signal)
      disp_event_release_internal(s->signal);
   if (s->waiter) {
      /* A wait whose signal never came: it fails rather than waits forever. */
      disp__event_set_status(s->waiter, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, false);
      disp_ReleaseEvent(disp_event_to_handle(s->waiter));
   }
   pthread_mutex_destroy(&s->lock);
   icd_object_finish(&s->obj);
   if (s->context)
      plat_context_release_internal(s->context);
   icd_free(s->props);
   icd_free(s);
}

static void
sema_retain_internal(struct _cl_semaphore_khr *s)
{
   icd_object_retain_internal(&s->obj);
}

static void
sema_release_internal(struct _cl_semaphore_khr *s)
{
   if (icd_object_release_internal(&s->obj))
      sema_destroy(s);
}

/* ---- creation ------------------------------------------------------------------------ */

/*
 * The properties: CL_SEMAPHORE_TYPE_KHR (required, CL_SEMAPHORE_TYPE_BINARY_KHR) and
 * CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR (exactly one device of the context; required in a
 * multi-device context). *num_out counts the entries with the terminator.
 */
static cl_int
parse_properties(const struct _cl_context *ctx, const cl_semaphore_properties_khr *props,
                 struct _cl_device_id **device, size_t *num_out)
{
   if (!props)
      return ICD_ERROR(CL_INVALID_VALUE, "sema_props is NULL");
   bool type = false, devices = false;
   size_t i = 0;
   while (props[i]) {
      const cl_semaphore_properties_khr name = props[i];
      if (name != CL_SEMAPHORE_TYPE_KHR && name != CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR)
         return ICD_ERROR(CL_INVALID_PROPERTY, "unsupported semaphore property 0x%llx",
                          (unsigned long long)name);
      if ((name == CL_SEMAPHORE_TYPE_KHR && type) ||
          (name == CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR && devices))
         return ICD_ERROR(CL_INVALID_PROPERTY, "semaphore property 0x%llx given twice",
                          (unsigned long long)name);
      if (name == CL_SEMAPHORE_TYPE_KHR) {
         type = true;
         if (props[i + 1] != CL_SEMAPHORE_TYPE_BINARY_KHR)
            return ICD_ERROR(CL_INVALID_PROPERTY, "semaphore type %llu is not binary",
                             (unsigned long long)props[i + 1]);
         i += 2;
         continue;
      }
      devices = true;
      size_t n = 0;
      for (i++; props[i] != CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR; i++, n++) {
         struct _cl_device_id *dev = plat_device_from_handle((cl_device_id)props[i]);
         if (!dev || !plat_context_has_device(ctx, dev))
            return ICD_ERROR(CL_INVALID_DEVICE, "semaphore device %p is not a device of the "
                             "context", (void *)props[i]);
         *device = dev;
      }
      if (n != 1)
         return ICD_ERROR(CL_INVALID_DEVICE, "the semaphore device list names %zu devices, "
                          "not one", n);
      i++; /* the list's terminator */
   }
   if (!devices && ctx->num_devices > 1)
      return ICD_ERROR(CL_INVALID_PROPERTY, "a multi-device context needs "
                       "CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR");
   if (!type)
      return ICD_ERROR(CL_INVALID_VALUE, "sema_props lacks CL_SEMAPHORE_TYPE_KHR");
   if (!devices)
      *device = ctx->devices[0];
   *num_out = i + 1;
   return CL_SUCCESS;
}

/* Returns a new semaphore with one API reference. */
cl_semaphore_khr CL_API_CALL
disp_CreateSemaphoreWithPropertiesKHR(cl_context context,
                                      const cl_semaphore_properties_khr *sema_props,
                                      cl_int *errcode_ret)
{
   cl_int err;
   struct _cl_context *ctx = plat_context_from_handle(context);
   if (!ctx) {
      err = ICD_ERROR(CL_INVALID_CONTEXT, "context %p is not an hsacl context", (void *)context);
      goto out;
   }
   struct _cl_device_id *dev = NULL;
   size_t n = 0;
   err = parse_properties(ctx, sema_props, &dev, &n);
   if (err != CL_SUCCESS)
      goto out;
   struct _cl_semaphore_khr *s = icd_calloc(1, sizeof(*s));
   cl_semaphore_properties_khr *props = icd_malloc(n * sizeof(*props));
   if (!s || !props) {
      icd_free(s);
      icd_free(props);
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a semaphore");
      goto out;
   }
   memcpy(props, sema_props, n * sizeof(*props));
   icd_object_init(&s->obj, ICD_TYPE_SEMAPHORE);
   disp__mutex_init(&s->lock);
   plat_context_retain_internal(ctx);
   s->context = ctx;
   s->device = dev;
   s->props = props;
   s->num_props = n;
   atomic_init(&s->payload, 0);
   icd_set_errcode(errcode_ret, CL_SUCCESS);
   return sema_to_handle(s);

out:
   icd_set_errcode(errcode_ret, err);
   return NULL;
}

cl_int CL_API_CALL
disp_RetainSemaphoreKHR(cl_semaphore_khr sema_object)
{
   struct _cl_semaphore_khr *s = sema_from_handle(sema_object);
   if (!s)
      return ICD_ERROR(CL_INVALID_SEMAPHORE_KHR, "%p is not a semaphore", (void *)sema_object);
   icd_object_retain(&s->obj);
   return CL_SUCCESS;
}

/* The last API reference drops the one internal reference they hold; commands using the
 * semaphore hold their own, so it lives until they finish. */
cl_int CL_API_CALL
disp_ReleaseSemaphoreKHR(cl_semaphore_khr sema_object)
{
   struct _cl_semaphore_khr *s = sema_from_handle(sema_object);
   if (!s)
      return ICD_ERROR(CL_INVALID_SEMAPHORE_KHR, "%p is not a semaphore", (void *)sema_object);
   if (icd_object_release(&s->obj))
      sema_release_internal(s);
   return CL_SUCCESS;
}

cl_int CL_API_CALL
disp_GetSemaphoreInfoKHR(cl_semaphore_khr sema_object, cl_semaphore_info_khr param_name,
                         size_t param_value_size, void *param_value,
                         size_t *param_value_size_ret)
{
   struct _cl_semaphore_khr *s = sema_from_handle(sema_object);
   if (!s)
      return ICD_ERROR(CL_INVALID_SEMAPHORE_KHR, "%p is not a semaphore", (void *)sema_object);
   const size_t pvs = param_value_size;
   void *pv = param_value;
   size_t *pvsr = param_value_size_ret;
   switch (param_name) {
   case CL_SEMAPHORE_CONTEXT_KHR:
      return ICD_GET_INFO_SCALAR(cl_context, plat_context_to_handle(s->context), pvs, pv, pvsr);
   case CL_SEMAPHORE_REFERENCE_COUNT_KHR:
      return ICD_GET_INFO_SCALAR(cl_uint, icd_object_refcount(&s->obj), pvs, pv, pvsr);
   case CL_SEMAPHORE_PROPERTIES_KHR:
      return icd_get_info(s->props, s->num_props * sizeof(*s->props), pvs, pv, pvsr);
   case CL_SEMAPHORE_TYPE_KHR:
      return ICD_GET_INFO_SCALAR(cl_semaphore_type_khr, CL_SEMAPHORE_TYPE_BINARY_KHR, pvs, pv,
                                 pvsr);
   case CL_SEMAPHORE_PAYLOAD_KHR:
      return ICD_GET_INFO_SCALAR(cl_semaphore_payload_khr, atomic_load(&s->payload), pvs, pv,
                                 pvsr);
   case CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR:
      return ICD_GET_INFO_SCALAR(cl_device_id, plat_device_to_handle(s->device), pvs, pv, pvsr);
   default:
      return ICD_ERROR(CL_INVALID_VALUE, "param_name 0x%x is not a semaphore query",
                       (unsigned)param_name);
   }
}

/*
 * cl_khr_external_semaphore's export. No semaphore here is created with export handle
 * types (the property is refused), so every request names a type "not specified when
 * sema_object was created": CL_INVALID_VALUE after the handle checks. Found with
 * cl_khr_semaphore because the CTS's semaphore tests look it up unconditionally.
 */
cl_int CL_API_CALL
disp_GetSemaphoreHandleForTypeKHR(cl_semaphore_khr sema_object, cl_device_id device,
                                  cl_external_semaphore_handle_type_khr handle_type,
                                  size_t handle_size, void *handle_ptr, size_t *handle_size_ret)
{
   (void)handle_size;
   (void)handle_ptr;
   (void)handle_size_ret;
   struct _cl_semaphore_khr *s = sema_from_handle(sema_object);
   if (!s)
      return ICD_ERROR(CL_INVALID_SEMAPHORE_KHR, "%p is not a semaphore", (void *)sema_object);
   struct _cl_device_id *dev = plat_device_from_handle(device);
   if (!dev || !plat_context_has_device(s->context, dev))
      return ICD_ERROR(CL_INVALID_DEVICE, "device %p is not a device of the semaphore's "
                       "context", (void *)device);
   return ICD_ERROR(CL_INVALID_VALUE, "handle type 0x%x: the semaphore has no export handle "
                    "types", (unsigned)handle_type);
}

/* ---- commands ------------------------------------------------------------------------ */

/* A wait or signal command's payload; freed by sema_cmd_release. */
struct sema_cmd {
   bool signal;
   cl_uint num;
   struct _cl_semaphore_khr **semas; /* internal references */
   struct _cl_event **waiters;       /* signal: user events to complete (API refs) or NULL */
   bool done;
};

/* Runs on the host once the dependencies are complete; no lock held. */
static cl_int
sema_cmd_complete(struct disp_command *cmd)
{
   struct sema_cmd *c = cmd->payload;
   for (cl_uint i = 0; i < c->num; i++) {
      atomic_store(&c->semas[i]->payload, c->signal ? 1u : 0u);
      if (c->waiters && c->waiters[i])
         disp__event_set_status(c->waiters[i], CL_COMPLETE, false);
   }
   c->done = true;
   return CL_SUCCESS;
}

static void
sema_cmd_release(struct disp_command *cmd)
{
   struct sema_cmd *c = cmd->payload;
   if (!c)
      return;
   for (cl_uint i = 0; i < c->num; i++) {
      if (c->waiters && c->waiters[i]) {
         /* A signal that failed fails the wait waiting for it (complete() ran otherwise). */
         if (!c->done)
            disp__event_set_status(c->waiters[i], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                                   false);
         disp_ReleaseEvent(disp_event_to_handle(c->waiters[i]));
      }
      if (c->semas[i])
         sema_release_internal(c->semas[i]);
   }
   icd_free(c->waiters);
   icd_free(c->semas);
   icd_free(c);
   cmd->payload = NULL;
}

/*
 * The checks both commands share, in the order the extension lists them: the queue, the
 * count, each semaphore, its context, its device (CL_INVALID_COMMAND_QUEUE), the wait list,
 * and a wait-list event that already failed (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
 */
static cl_int
check_command(struct _cl_command_queue *q, cl_uint num, const cl_semaphore_khr *semas,
              cl_uint num_events, const cl_event *wait_list)
{
   if (num == 0 || !semas)
      return ICD_ERROR(CL_INVALID_VALUE, "no semaphores");
   for (cl_uint i = 0; i < num; i++) {
      struct _cl_semaphore_khr *s = sema_from_handle(semas[i]);
      if (!s)
         return ICD_ERROR(CL_INVALID_SEMAPHORE_KHR, "sema_objects[%u] is not a semaphore", i);
      if (s->context != disp_queue_context(q))
         return ICD_ERROR(CL_INVALID_CONTEXT, "sema_objects[%u] belongs to another context", i);
      if (s->device != disp_queue_device(q))
         return ICD_ERROR(CL_INVALID_COMMAND_QUEUE, "sema_objects[%u] is not associated with "
                          "the queue's device", i);
   }
   cl_int err = disp_validate_wait_list(disp_queue_context(q), num_events, wait_list);
   if (err != CL_SUCCESS)
      return err;
   for (cl_uint i = 0; i < num_events; i++) {
      cl_int status = CL_COMPLETE;
      disp_GetEventInfo(wait_list[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                        &status, NULL);
      if (status < 0)
         return ICD_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "event_wait_list[%u] "
                          "failed (%d)", i, status);
   }
   return CL_SUCCESS;
}

/* Allocates a command payload for `num` semaphores, with internal references on them. */
static cl_int
sema_cmd_alloc(bool signal, cl_uint num, const cl_semaphore_khr *semas, struct sema_cmd **out)
{
   struct sema_cmd *c = icd_calloc(1, sizeof(*c));
   if (!c)
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a semaphore command");
   c->signal = signal;
   c->semas = icd_calloc(num, sizeof(*c->semas));
   c->waiters = signal ? icd_calloc(num, sizeof(*c->waiters)) : NULL;
   if (!c->semas || (signal && !c->waiters)) {
      icd_free(c->semas);
      icd_free(c->waiters);
      icd_free(c);
      return ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a semaphore command");
   }
   c->num = num;
   for (cl_uint i = 0; i < num; i++) {
      c->semas[i] = sema_from_handle(semas[i]);
      sema_retain_internal(c->semas[i]);
   }
   *out = c;
   return CL_SUCCESS;
}

/* What both enqueues start with: the arguments checked, then the command's payload. */
static cl_int
sema_cmd_begin(struct _cl_command_queue *q, bool signal, cl_uint num_sema_objects,
               const cl_semaphore_khr *sema_objects, cl_uint num_events_in_wait_list,
               const cl_event *event_wait_list, struct sema_cmd **out)
{
   cl_int err = check_command(q, num_sema_objects, sema_objects, num_events_in_wait_list,
                              event_wait_list);
   if (err != CL_SUCCESS)
      return err;
   return sema_cmd_alloc(signal, num_sema_objects, sema_objects, out);
}

static void
command_setup(struct disp_command *cmd, struct sema_cmd *c)
{
   cmd->kind = DISP_COMMAND_HOST;
   cmd->uses_aql = false;
   cmd->payload = c;
   cmd->complete = sema_cmd_complete;
   cmd->release = sema_cmd_release;
}

/* `sema_payload_list` is ignored: binary semaphores take no payload. */
cl_int CL_API_CALL
disp_EnqueueSignalSemaphoresKHR(cl_command_queue command_queue, cl_uint num_sema_objects,
                                const cl_semaphore_khr *sema_objects,
                                const cl_semaphore_payload_khr *sema_payload_list,
                                cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                cl_event *event)
{
   (void)sema_payload_list;
   QUEUE_OR_RETURN(q, command_queue);
   struct sema_cmd *c;
   cl_int err = sema_cmd_begin(q, true, num_sema_objects, sema_objects, num_events_in_wait_list,
                               event_wait_list, &c);
   if (err != CL_SUCCESS)
      return err;
   struct disp_command *cmd;
   err = disp_command_create(q, CL_COMMAND_SEMAPHORE_SIGNAL_KHR, num_events_in_wait_list,
                             event_wait_list, &cmd);
   if (err != CL_SUCCESS) {
      struct disp_command tmp = { .payload = c };
      sema_cmd_release(&tmp);
      return err;
   }
   command_setup(cmd, c);
   /* Pair with a wait already waiting, or become the signal the next wait takes. */
   for (cl_uint i = 0; i < c->num; i++) {
      struct _cl_semaphore_khr *s = c->semas[i];
      pthread_mutex_lock(&s->lock);
      if (s->waiter) {
         c->waiters[i] = s->waiter;
         s->waiter = NULL;
      } else {
         if (s->signal)
            disp_event_release_internal(s->signal);
         disp_event_retain_internal(cmd->event);
         s->signal = cmd->event;
      }
      pthread_mutex_unlock(&s->lock);
   }
   return disp_command_enqueue(cmd, event, false);
}

/* `sema_payload_list` is ignored: binary semaphores take no payload. */
cl_int CL_API_CALL
disp_EnqueueWaitSemaphoresKHR(cl_command_queue command_queue, cl_uint num_sema_objects,
                              const cl_semaphore_khr *sema_objects,
                              const cl_semaphore_payload_khr *sema_payload_list,
                              cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                              cl_event *event)
{
   (void)sema_payload_list;
   QUEUE_OR_RETURN(q, command_queue);
   struct sema_cmd *c;
   cl_int err = sema_cmd_begin(q, false, num_sema_objects, sema_objects, num_events_in_wait_list,
                               event_wait_list, &c);
   if (err != CL_SUCCESS)
      return err;
   /* The dependencies: the wait list, then per semaphore the signal it takes or the user
    * event the next signal completes. */
   cl_uint n = num_events_in_wait_list + num_sema_objects;
   cl_event *deps = icd_malloc(n * sizeof(*deps));
   struct _cl_event **taken = icd_calloc(num_sema_objects, sizeof(*taken));
   if (!deps || !taken) {
      err = ICD_ERROR(CL_OUT_OF_HOST_MEMORY, "allocating a semaphore wait");
      goto out_free;
   }
   if (num_events_in_wait_list)
      memcpy(deps, event_wait_list, num_events_in_wait_list * sizeof(*deps));
   for (cl_uint i = 0; i < c->num; i++) {
      struct _cl_semaphore_khr *s = c->semas[i];
      struct _cl_event *ev = NULL;
      pthread_mutex_lock(&s->lock);
      if (s->signal) {
         ev = s->signal; /* its internal reference moves to `taken` */
         s->signal = NULL;
      } else {
         if (!s->waiter)
            err = disp__event_create(s->context, NULL, CL_COMMAND_USER, &s->waiter);
         if (err == CL_SUCCESS) {
            ev = s->waiter;
            disp_event_retain_internal(ev);
         }
      }
      pthread_mutex_unlock(&s->lock);
      if (err != CL_SUCCESS)
         goto out_free;
      taken[i] = ev;
      deps[num_events_in_wait_list + i] = disp_event_to_handle(ev);
   }
   struct disp_command *cmd;
   err = disp_command_create(q, CL_COMMAND_SEMAPHORE_WAIT_KHR, n, deps, &cmd);
   if (err != CL_SUCCESS)
      goto out_free;
   command_setup(cmd, c);
   c = NULL;
   err = disp_command_enqueue(cmd, event, false);

out_free:
   for (cl_uint i = 0; taken && i < num_sema_objects; i++) {
      if (taken[i])
         disp_event_release_internal(taken[i]); /* the command holds its own */
   }
   icd_free(taken);
   icd_free(deps);
   if (c) {
      struct disp_command tmp = { .payload = c };
      sema_cmd_release(&tmp);
   }
   return err;
}
